import { listAccountSessions, revokeOtherAccountSessions } from '@/app/_server/account';
import { requireUser } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The user's active sessions (device, last active, which one is this device). */
export const GET = route(async (req) => {
  const user = await requireUser(req);
  return Response.json({ items: await listAccountSessions(user, req.headers), nextCursor: null });
});

/** Signs out everywhere else: every session of the user but this one. */
export const DELETE = route(async (req) => {
  await requireUser(req);
  await revokeOtherAccountSessions(req.headers);
  return new Response(null, { status: 204 });
});
