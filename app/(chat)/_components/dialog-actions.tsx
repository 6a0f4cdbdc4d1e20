'use client';

import { useTranslations } from 'next-intl';

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
        {/* Busy, it is aria-disabled, not disabled: a disabled button loses the focus to the page's start. Its
            click is cancelled then, which stops the form's submission (Enter in a field clicks it too). */}
        <button
          type="submit"
          aria-disabled={busy || undefined}
          onClick={(e) => busy && e.preventDefault()}
          className="rounded-md bg-blue-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-blue-700 aria-disabled:opacity-50"
        >
          {submit}
        </button>
      </div>
    </>
  );
}
