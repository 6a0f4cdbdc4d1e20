import { headers } from 'next/headers';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getDb } from '@/db/client';
import { getSetting } from '@/db/queries/settings';
import { countUsers } from '@/db/queries/users';
import { AuthCard } from '@/app/_components/auth-card';
import { AuthForm } from '@/app/_components/auth-form';
import { getSessionUser } from '@/app/_server/session';
import { formError } from '@/app/_server/auth-form-post';
import { SsoSignIn } from '@/app/_components/sso-sign-in';
import { getSsoProviderPublic } from '@/db/queries/sso';
import { passwordSignInEnabled } from '@/app/_server/sso';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<{ error?: string | string[] }> };

export default async function SignUpPage({ searchParams }: Props) {
  if (await getSessionUser(await headers())) redirect('/');
  const db = getDb();
  const first = countUsers(db) === 0;
  const sso = first ? null : getSsoProviderPublic(db);
  // With password sign-in off, people join through single sign-on (their first sign-in makes the account).
  if (sso && !passwordSignInEnabled())
    return (
      <AuthCard title="Create an account">
        <SsoSignIn name={sso.name} error={null} passwordOff />
      </AuthCard>
    );
  const open = first || getSetting(db, 'signupOpen');
  return (
    <AuthCard title={first ? 'Create the admin account' : 'Create an account'}>
      {first && (
        <p className="text-sm text-zinc-500">This is the first account, so it becomes the administrator.</p>
      )}
      {open ? (
        <AuthForm mode="sign-up" initialError={formError((await searchParams).error)} />
      ) : (
        <p className="text-sm">Sign-up is closed. Ask an admin to create your account.</p>
      )}
      {!first && (
        <p className="text-sm text-zinc-500">
          Have an account?{' '}
          <Link href="/sign-in" className="text-blue-600 underline">
            Sign in
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
