import { headers } from 'next/headers';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { getDb } from '@/db/client';
import { getSetting } from '@/db/queries/settings';
import { countUsers } from '@/db/queries/users';
import { AuthCard } from '@/app/_components/auth-card';
import { AuthForm } from '@/app/_components/auth-form';
import { getSessionUser } from '@/app/_server/session';
import { AUTH_FORM_ERRORS } from '@/app/_server/auth-form-post';
import { SsoSignIn } from '@/app/_components/sso-sign-in';
import { getSsoProviderPublic } from '@/db/queries/sso';
import { passwordSignInEnabled } from '@/app/_server/sso';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<{ error?: string | string[] }> };

export default async function SignUpPage({ searchParams }: Props) {
  if (await getSessionUser(await headers())) redirect('/');
  const db = getDb();
  const t = await getTranslations('auth');
  const first = (await countUsers(db)) === 0;
  const sso = first ? null : await getSsoProviderPublic(db);
  // With password sign-in off, people join through single sign-on (their first sign-in makes the account).
  if (sso && !(await passwordSignInEnabled()))
    return (
      <AuthCard title={t('signUp.title')}>
        <SsoSignIn name={sso.name} error={null} passwordOff />
      </AuthCard>
    );
  const open = first || (await getSetting(db, 'signupOpen'));
  const { error } = await searchParams;
  const formError =
    typeof error === 'string' && error in AUTH_FORM_ERRORS
      ? t(`errors.${error as keyof typeof AUTH_FORM_ERRORS}`)
      : null;
  return (
    <AuthCard title={first ? t('signUp.adminTitle') : t('signUp.title')}>
      {first && <p className="text-sm text-zinc-500">{t('signUp.first')}</p>}
      {open ? (
        <AuthForm mode="sign-up" initialError={formError} />
      ) : (
        <p className="text-sm">{t('signUp.closed')}</p>
      )}
      {!first && (
        <p className="text-sm text-zinc-500">
          {t('signUp.haveAccount')}{' '}
          <Link href="/sign-in" className="text-blue-600 underline">
            {t('signUp.signIn')}
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
