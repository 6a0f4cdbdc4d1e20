import { listAllResources } from '@/app/_server/mcp-context';
import { requireUser } from '@/app/_server/session';
import { assertNotCrossSite, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  assertNotCrossSite(req);
  const user = await requireUser(req);
  return Response.json(await listAllResources(user));
});
