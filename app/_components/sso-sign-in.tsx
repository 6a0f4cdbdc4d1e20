import { getTranslations } from 'next-intl/server';
import { SSO_ERROR_CODES } from '@/lib/sso';

/** Error codes the single sign-on flow sends back besides the known ones (shown with the generic text). */
const CODE = /^[A-Za-z][A-Za-z0-9_]{0,59}$/;

/**
 * "Sign in with <provider>": a form POST that starts the provider's sign-in (app/_server/auth-form-post.ts),
 * with what went wrong last time, by code (never text taken from the URL), and where to go once signed
 * in (`next`, a path of this app the page has already checked).
 */
export async function SsoSignIn({
  name,
  error,
  passwordOff,
  next = '/',
}: {
  name: string;
  error: string | null;
  passwordOff: boolean;
  next?: string;
}) {
  const t = await getTranslations('sso.signIn');
  const known = (SSO_ERROR_CODES as readonly string[]).includes(error ?? '') ? error : null;
  const message =
    known === 'domain_not_allowed'
      ? t('errors.domainNotAllowed')
      : known === 'email_not_verified'
        ? t('errors.emailNotVerified', { name })
        : known === 'account_not_linked'
          ? t('errors.accountNotLinked', { name })
          : known === 'identity_not_usable'
            ? t('errors.identityNotUsable', { name })
            : error === 'sso_unavailable'
              ? t('errors.unavailable')
              : error && CODE.test(error)
                ? t('errors.generic', { code: error })
                : null;
  return (
    <div className="space-y-3">
      {passwordOff ? (
        <p className="text-sm text-zinc-500">{t('passwordOff', { name })}</p>
      ) : (
        <p className="flex items-center gap-3 text-xs text-zinc-500 uppercase" aria-hidden="true">
          <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
          {t('or')}
          <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
        </p>
      )}
      {message && (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          {message}
        </p>
      )}
      <form method="post" action="/api/auth-form/sso">
        {next !== '/' && <input type="hidden" name="next" value={next} />}
        <button
          type="submit"
          className="w-full rounded-md border border-zinc-300 px-3 py-2 text-sm font-semibold hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900"
        >
          {t('signInWith', { name })}
        </button>
      </form>
    </div>
  );
}
