'use client';

import { useTranslations } from 'next-intl';
import { type FormEvent, useId, useState } from 'react';
import { DialogActions } from '@/app/(chat)/_components/dialog-actions';
import { Modal } from '@/app/_components/modal';
import { useFailureText } from '@/app/_components/failure-text';
import { adminFetch } from './admin-fetch';

/** An admin's "Sign out everywhere" for one user: every session of theirs ends (audited on the server). */
export async function signOutUserEverywhere(userId: string): Promise<void> {
  await adminFetch(`/api/admin/users/${userId}/sessions`, { method: 'DELETE' });
}

type Props = {
  email: string;
  userId: string;
  /** Called with the confirmation once the password is set. */
  onDone: (message: string) => void;
  onClose: () => void;
  /** Where focus goes when it closes (the row's actions button). */
  returnFocus?: () => HTMLElement | null | undefined;
};

/**
 * An admin's "Reset password" for one user, from the row's actions menu: a new password; every session of
 * the user ends. Audited on the server. A form dialog: a click outside does not close it.
 */
export function ResetPasswordDialog({ email, userId, onDone, onClose, returnFocus }: Props) {
  const t = useTranslations('adminUsers');
  const failureText = useFailureText();
  const id = useId();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await adminFetch(`/api/admin/users/${userId}/password`, { method: 'POST', json: { password } });
      onDone(t('passwordReset', { email }));
      onClose();
    } catch (err) {
      setError(failureText(err));
      setBusy(false);
    }
  }

  return (
    <Modal
      title={t('resetPasswordOf', { email })}
      onClose={onClose}
      closeOnOutsideClick={false}
      returnFocus={returnFocus}
      className="w-[min(26rem,92vw)] p-5"
      titleClassName="text-base font-semibold break-words"
    >
      <form onSubmit={(e) => void submit(e)} className="mt-3 space-y-2">
        <label htmlFor={`${id}-pw`} className="block text-sm font-medium break-words">
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
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
          className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-950 aria-[invalid=true]:border-red-500"
        />
        <DialogActions
          error={error}
          errorId={`${id}-error`}
          submit={t('setPassword')}
          busy={busy}
          onCancel={onClose}
        />
      </form>
    </Modal>
  );
}
