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

export default async function SignInPage({ searchParams }: Props) {
  const { error, next: rawNext } = await searchParams;
  // Where to go once signed in (a share page the viewer wants to continue, say): a path of this app, else home.
  const next = ReturnToSchema.parse(rawNext);
  if (await getSessionUser(await headers())) redirect(next);
  const db = getDb();
  if ((await countUsers(db)) === 0) redirect(authPagePath('/sign-up', next));
  const sso = await getSsoProviderPublic(db);
  const password = (await passwordSignInEnabled()) || !sso;
  const t = await getTranslations('auth');
  const formError = isAuthFormError(error) ? t(`errors.${error}`) : null;
  const ssoError = typeof error === 'string' && !isAuthFormError(error) ? error : null;
  return (
    <AuthCard title={t('signIn.title')}>
      {password && <AuthForm mode="sign-in" initialError={formError} next={next} />}
      {sso && <SsoSignIn name={sso.name} error={ssoError} passwordOff={!password} next={next} />}
      {password && (await getSetting(db, 'signupOpen')) && (
        <p className="text-sm text-zinc-500">
          {t('signIn.newHere')}{' '}
          <Link href={authPagePath('/sign-up', next)} className="text-blue-600 underline">
            {t('signIn.createAccount')}
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
