import 'server-only';
import type { PublicUser } from '@/db/queries/users';
import { cachedSession, cachedUser } from '@/app/_server/hot-cache';
import { getAuth } from '@/app/_server/auth';
import { AppError } from '@/lib/errors';
import { assertNoNulAddress, assertSameOrigin } from '@/lib/http';
import { audit, requestAction } from '@/app/_server/audit';

export type SessionUser = Pick<PublicUser, 'id' | 'name' | 'email' | 'role'>;

/** The signed-in, enabled user of a request, or null. */
export async function getSessionUser(headers: Headers): Promise<SessionUser | null> {
  const session = await cachedSession(headers, async () => {
    const found = await (await getAuth()).api.getSession({ headers });
    return found && { userId: found.user.id, expiresAt: new Date(found.session.expiresAt).getTime() };
  });
  if (!session) return null;
  const row = await cachedUser(session.userId);
  if (!row || row.disabled) return null;
  return { id: row.id, name: row.name, email: row.email, role: row.role };
}

/** Any signed-in user; state-changing methods must also come from our own origin. */
export async function requireUser(req: Request): Promise<SessionUser> {
  const user = await getSessionUser(req.headers);
  if (!user) throw new AppError('unauthorized', 'Sign in first.');
  if (req.method !== 'GET' && req.method !== 'HEAD') assertSameOrigin(req);
  assertNoNulAddress(req);
  return user;
}

/** Admin APIs: 401 anonymous, 403 non-admin or foreign origin; refused attempts are audit-logged. */
export async function requireAdmin(req: Request): Promise<SessionUser> {
  const user = await getSessionUser(req.headers);
  let admin: SessionUser;
  try {
    if (!user) throw new AppError('unauthorized', 'Sign in first.');
    if (user.role !== 'admin') throw new AppError('forbidden', 'Admins only.');
    if (req.method !== 'GET' && req.method !== 'HEAD') assertSameOrigin(req);
    admin = user;
  } catch (err) {
    await audit(user, requestAction(req), null, 'denied', err instanceof AppError ? err.message : undefined);
    throw err;
  }
  assertNoNulAddress(req);
  return admin;
}
