import { completePrompt } from '@/app/_server/mcp-context';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { PromptCompleteSchema } from '@/lib/schemas/prompts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const user = await requireUser(req);
  const body = await readJson(req, PromptCompleteSchema);
  return Response.json(await completePrompt(user, body.server, body.prompt, body.argument, body.value));
});
