import { forgetConnection } from '@/app/_server/mcp-connections';
import { requireUser } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ server: string }> };

/** SPEC §7.2: forgets the user's tokens for the server and closes the user's connection. */
export const DELETE = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  return Response.json(await forgetConnection(user, (await params).server));
});
