'use client';

import { useTranslations } from 'next-intl';
import { BusyButton } from '@/app/_components/busy-button';

/** The end of a small form dialog: its error (announced), then Cancel and the submit button. */
export function DialogActions({
  error,
  submit,
  busy = false,
  onCancel,
  errorId,
}: {
  error: string | null | undefined;
  submit: string;
  busy?: boolean;
  onCancel: () => void;
  /** The error's element id, for a field's aria-describedby. */
  errorId?: string;
}) {
  const t = useTranslations('common');
  return (
    <>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2 pt-2">
        <button
          type="button"
          onClick={onCancel}
          className="rounded-md px-3 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
        >
          {t('cancel')}
        </button>
        <BusyButton
          type="submit"
          busy={busy}
          className="rounded-md bg-blue-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-blue-700 aria-disabled:opacity-50"
        >
          {submit}
        </BusyButton>
      </div>
    </>
  );
}
