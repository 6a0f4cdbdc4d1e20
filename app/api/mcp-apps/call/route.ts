import { AppCallSchema, callToolFromApp } from '@/app/_server/mcp-apps';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * A tool call from an MCP App in one of the user's conversations, through the model's gates:
 * `{ status: 'done', result }`, `{ status: 'approval-required', approvalId }` (answer it by posting the
 * same call with `approval: { id, approved }`), or `{ status: 'denied' }`.
 */
export const POST = route(async (req) => {
  const user = await requireUser(req);
  const call = await readJson(req, AppCallSchema);
  return Response.json(await callToolFromApp(user, call));
});
