'use client';

import { useTranslations } from 'next-intl';

/** The API answers errors as `{ error: { message } }`; the stream sends plain text. Show the human part. */
function readable(raw: string): string | null {
  try {
    const parsed = JSON.parse(raw) as { error?: { message?: string } };
    if (parsed?.error?.message) return parsed.error.message;
  } catch {}
  return raw || null;
}

export function ErrorNotice({ error, onRetry }: { error: string; onRetry: () => void }) {
  const t = useTranslations('common');
  return (
    <div
      role="alert"
      data-chat-error
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <span>{readable(error) ?? t('somethingWrong')}</span>
      <button
        type="button"
        onClick={onRetry}
        className="rounded-md bg-red-600 px-3 py-1 text-xs font-semibold text-white hover:bg-red-700"
      >
        {t('retry')}
      </button>
    </div>
  );
}
