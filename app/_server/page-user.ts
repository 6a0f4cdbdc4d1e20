import 'server-only';
import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { getDb } from '@/db/client';
import { countUsers } from '@/db/queries/users';
import { getSessionUser, type SessionUser } from '@/app/_server/session';
import { authPagePath, REQUESTED_PATH_HEADER } from '@/lib/safe-url';

/**
 * For pages: the signed-in user, or a redirect to sign-in (sign-up while no account exists) that comes
 * back to the page asked for (its path and query, as the proxy names it) once signed in.
 */
export async function requirePageUser(): Promise<SessionUser> {
  const requestHeaders = await headers();
  const user = await getSessionUser(requestHeaders);
  if (user) return user;
  const page = (await countUsers(getDb())) === 0 ? '/sign-up' : '/sign-in';
  redirect(authPagePath(page, requestHeaders.get(REQUESTED_PATH_HEADER)));
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
