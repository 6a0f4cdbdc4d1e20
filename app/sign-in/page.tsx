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

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<{ error?: string | string[] }> };

export default async function SignInPage({ searchParams }: Props) {
  if (await getSessionUser(await headers())) redirect('/');
  const db = getDb();
  if (countUsers(db) === 0) redirect('/sign-up');
  return (
    <AuthCard title="Sign in">
      <AuthForm mode="sign-in" initialError={formError((await searchParams).error)} />
      {getSetting(db, 'signupOpen') && (
        <p className="text-sm text-zinc-500">
          New here?{' '}
          <Link href="/sign-up" className="text-blue-600 underline">
            Create an account
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
