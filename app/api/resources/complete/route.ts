import { completeTemplate } from '@/app/_server/mcp-context';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';
import { ResourceCompleteSchema } from '@/lib/schemas/resources';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const user = await requireUser(req);
  const body = await readJson(req, ResourceCompleteSchema);
  return Response.json(
    await completeTemplate(user, body.server, body.uriTemplate, body.argument, body.value, body.context),
  );
});
