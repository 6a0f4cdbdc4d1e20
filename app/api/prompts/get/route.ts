import { renderPrompt } from '@/app/_server/mcp-context';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { PromptGetSchema } from '@/lib/schemas/prompts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const user = await requireUser(req);
  const body = await readJson(req, PromptGetSchema);
  return Response.json(await renderPrompt(user, body.server, body.name, body.arguments));
});
