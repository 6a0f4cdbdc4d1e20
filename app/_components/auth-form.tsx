'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { authErrorCode, authFormError } from '@/lib/auth-form-errors';

type Mode = 'sign-up' | 'sign-in';

const input =
  'w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm outline-none focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 dark:border-zinc-700 dark:bg-zinc-900';

/**
 * Email + password form for /sign-up and /sign-in; talks to the auth library's endpoints. Without
 * JavaScript it posts the form to /api/auth-form/<mode> (a POST, so the password never lands in a URL).
 * Signed in, the browser goes to `next`: a path of this app the page has already checked (default home).
 */
export function AuthForm({
  mode,
  initialError = null,
  next = '/',
}: {
  mode: Mode;
  initialError?: string | null;
  next?: string;
}) {
  const t = useTranslations('auth.form');
  const tErrors = useTranslations('auth.errors');
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setError(null);
    setPending(true);
    const form = new FormData(event.currentTarget);
    const body =
      mode === 'sign-up'
        ? { name: form.get('name'), email: form.get('email'), password: form.get('password') }
        : { email: form.get('email'), password: form.get('password') };
    try {
      const res = await fetch(`/api/auth/${mode}/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) {
        const failure = authFormError(mode, res.status, authErrorCode(await res.json().catch(() => null)));
        setError(
          failure === 'failed'
            ? t(mode === 'sign-up' ? 'signUpFailed' : 'signInFailed', { status: res.status })
            : tErrors(failure),
        );
        setPending(false);
        return;
      }
      window.location.assign(next);
    } catch {
      setError(t('unreachable'));
      setPending(false);
    }
  }

  return (
    <form
      method="post"
      action={`/api/auth-form/${mode}`}
      onSubmit={onSubmit}
      className="space-y-4"
      noValidate={false}
    >
      {next !== '/' && <input type="hidden" name="next" value={next} />}
      {mode === 'sign-up' && (
        <label className="block space-y-1 text-sm font-medium">
          <span>{t('name')}</span>
          <input name="name" required maxLength={100} autoComplete="name" className={input} autoFocus />
        </label>
      )}
      <label className="block space-y-1 text-sm font-medium">
        <span>{t('email')}</span>
        <input
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          className={input}
          autoFocus={mode === 'sign-in'}
        />
      </label>
      <label className="block space-y-1 text-sm font-medium">
        <span>{t('password')}</span>
        <input
          name="password"
          type="password"
          required
          minLength={mode === 'sign-up' ? 8 : undefined}
          maxLength={128}
          autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
          className={input}
        />
      </label>
      {error && (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          {error}
        </p>
      )}
      <BusyButton
        type="submit"
        busy={pending}
        className="w-full rounded-md bg-blue-600 px-3 py-2 text-sm font-semibold text-white hover:bg-blue-700 aria-disabled:opacity-60"
      >
        {pending ? t('wait') : mode === 'sign-up' ? t('createAccount') : t('signIn')}
      </BusyButton>
    </form>
  );
}
