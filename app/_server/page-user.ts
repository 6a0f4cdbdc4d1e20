import 'server-only';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getDb } from '@/db/client';
import { countUsers } from '@/db/queries/users';
import { getSessionUser, type SessionUser } from '@/app/_server/session';

/** For pages: the signed-in user, or a redirect to sign-in (sign-up while no account exists). */
export async function requirePageUser(): Promise<SessionUser> {
  const user = await getSessionUser(await headers());
  if (user) return user;
  redirect(countUsers(getDb()) === 0 ? '/sign-up' : '/sign-in');
}
