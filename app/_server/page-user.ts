import 'server-only';
import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { getDb } from '@/db/client';
import { countUsers } from '@/db/queries/users';
import { getSessionUser, type SessionUser } from '@/app/_server/session';

/** For pages: the signed-in user, or a redirect to sign-in (sign-up while no account exists). */
export async function requirePageUser(): Promise<SessionUser> {
  const user = await getSessionUser(await headers());
  if (user) return user;
  redirect((await countUsers(getDb())) === 0 ? '/sign-up' : '/sign-in');
}

/**
 * For admin pages: the signed-in admin, else a redirect (anonymous) or the 404 page (non-admin).
 * Every admin page calls this itself before it loads anything: Next renders a page alongside its
 * layout, so the layout's own check cannot keep a page's data out of the response.
 */
export async function requireAdminPage(): Promise<SessionUser> {
  const user = await requirePageUser();
  if (user.role !== 'admin') notFound();
  return user;
}
