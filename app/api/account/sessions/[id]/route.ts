import * as z from '@/lib/zod';
import { revokeAccountSession } from '@/app/_server/account';
import { requireUser } from '@/app/_server/session';
import { parseWith, route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

const SessionId = z.string().min(1).max(128);

/** Signs out one of the user's own sessions; any other id is a 404. */
export const DELETE = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const id = parseWith(SessionId, (await params).id, 'session id');
  await revokeAccountSession(user, req.headers, id);
  return new Response(null, { status: 204 });
});
