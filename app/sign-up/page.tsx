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
import { SsoSignIn } from '@/app/_components/sso-sign-in';
import { getSsoProviderPublic } from '@/db/queries/sso';
import { passwordSignInEnabled } from '@/app/_server/sso';
import { isAuthFormError } from '@/lib/auth-form-errors';
import { ReturnToSchema } from '@/lib/schemas/return-to';
import { authPagePath } from '@/lib/safe-url';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<{ error?: string | string[]; next?: string | string[] }> };

export default async function SignUpPage({ searchParams }: Props) {
  const { error, next: rawNext } = await searchParams;
  // Where to go once the account exists (the page that sent the visitor here): a path of this app, else home.
  const next = ReturnToSchema.parse(rawNext);
  if (await getSessionUser(await headers())) redirect(next);
  const db = getDb();
  const t = await getTranslations('auth');
  const first = (await countUsers(db)) === 0;
  const sso = first ? null : await getSsoProviderPublic(db);
  // With password sign-in off, people join through single sign-on (their first sign-in makes the account).
  if (sso && !(await passwordSignInEnabled()))
    return (
      <AuthCard title={t('signUp.title')}>
        <SsoSignIn name={sso.name} error={null} passwordOff next={next} />
      </AuthCard>
    );
  const open = first || (await getSetting(db, 'signupOpen'));
  const formError = isAuthFormError(error) ? t(`errors.${error}`) : null;
  return (
    <AuthCard title={first ? t('signUp.adminTitle') : t('signUp.title')}>
      {first && <p className="text-sm text-zinc-500">{t('signUp.first')}</p>}
      {open ? (
        <AuthForm mode="sign-up" initialError={formError} next={next} />
      ) : (
        <p className="text-sm">{t('signUp.closed')}</p>
      )}
      {!first && (
        <p className="text-sm text-zinc-500">
          {t('signUp.haveAccount')}{' '}
          <Link href={authPagePath('/sign-in', next)} className="text-blue-600 underline">
            {t('signUp.signIn')}
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
