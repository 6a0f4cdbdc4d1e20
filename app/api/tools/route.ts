import { requireUser } from '@/app/_server/session';
import { userToolCatalog } from '@/app/_server/tool-catalog';
import { assertNotCrossSite, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The MCP servers and tools a user can enable in a conversation, with an estimate of their token cost. */
export const GET = route(async (req) => {
  assertNotCrossSite(req);
  const user = await requireUser(req);
  return Response.json(await userToolCatalog(user));
});
