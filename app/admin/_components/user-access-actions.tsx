'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { adminFetch } from './admin-fetch';

/**
 * An admin's "Reset password" (a new password; every session of the user ends) and "Sign out everywhere"
 * for one user. Both are audited on the server.
 */
export function UserAccessActions({ email, userId }: { email: string; userId: string }) {
  const t = useTranslations('adminUsers');
  const id = useId();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  async function run(action: 'reset' | 'sign-out') {
    setBusy(true);
    setMessage(null);
    try {
      if (action === 'reset') {
        await adminFetch(`/api/admin/users/${userId}/password`, { method: 'POST', json: { password } });
        setPassword('');
        setOpen(false);
        setMessage({ ok: true, text: t('passwordReset', { email }) });
      } else {
        await adminFetch(`/api/admin/users/${userId}/sessions`, { method: 'DELETE' });
        setMessage({ ok: true, text: t('signedOut', { email }) });
      }
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  }

  const small = 'rounded border border-zinc-300 px-2 py-1 text-xs disabled:opacity-50 dark:border-zinc-700';
  return (
    <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
      <button
        type="button"
        aria-expanded={open}
        aria-label={t('resetPasswordOf', { email })}
        onClick={() => setOpen((o) => !o)}
        className={small}
      >
        {t('resetPassword')}
      </button>
      <button
        type="button"
        disabled={busy}
        aria-label={t('signOutEverywhereOf', { email })}
        onClick={() => void run('sign-out')}
        className={small}
      >
        {t('signOutEverywhere')}
      </button>
      {open && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run('reset');
          }}
          className="flex w-full flex-wrap items-center gap-2"
        >
          <label htmlFor={`${id}-pw`} className="text-xs">
            {t('newPasswordFor', { email })}
          </label>
          <input
            id={`${id}-pw`}
            type="password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            minLength={8}
            maxLength={128}
            required
            autoComplete="new-password"
            className="rounded border border-zinc-300 bg-white px-2 py-1 text-xs dark:border-zinc-700 dark:bg-zinc-900"
          />
          <button type="submit" disabled={busy} className={small}>
            {t('setPassword')}
          </button>
        </form>
      )}
      {message && (
        <p
          role={message.ok ? 'status' : 'alert'}
          className={message.ok ? 'text-xs text-green-700' : 'text-xs text-red-600'}
        >
          {message.text}
        </p>
      )}
    </div>
  );
}
