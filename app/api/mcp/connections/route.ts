import { listConnections } from '@/app/_server/mcp-connections';
import { requireUser } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** SPEC §7.2: the servers the user may use, with the state of the user's own connection to each. */
export const GET = route(async (req) => {
  const user = await requireUser(req);
  return Response.json(await listConnections(user));
});
