import { saveUserValues, UserValuesSchema } from '@/app/_server/mcp-connections';
import { requireUser } from '@/app/_server/session';
import { readJson, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ server: string }> };

/** The values the user supplies for a server (e.g. a personal API token): write-only, sealed at rest. */
export const PUT = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const body = await readJson(req, UserValuesSchema);
  return Response.json(await saveUserValues(user, (await params).server, body.values));
});
