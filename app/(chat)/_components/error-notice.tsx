'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import type { ErrorBody } from '@/lib/errors';

/** The API's error body (`{ error: { code, message, fields } }`) in a chat error's text; null when it is plain text (the stream's). */
export function errorBodyOf(raw: string): Partial<ErrorBody['error']> | null {
  try {
    return (JSON.parse(raw) as Partial<ErrorBody> | null)?.error ?? null;
  } catch {
    return null;
  }
}

/** Show the human part of an error: the API body's message, else the text as it is. */
function readable(raw: string): string | null {
  return errorBodyOf(raw)?.message || raw || null;
}

const ACTION = 'rounded-md bg-red-600 px-3 py-1 text-xs font-semibold text-white hover:bg-red-700';

/**
 * A chat error with its way out: Retry; when the session has ended (signed out in another tab, its
 * sessions revoked, the account disabled) a link to sign in again that comes back to this conversation;
 * when a new chat's assistant is gone, a link to a plain new chat (Retry could only fail again in both;
 * what the user typed is kept as the draft meanwhile); without `onRetry` (an answer to a tool call that
 * did not count: the cards already show what happened), Close.
 */
export function ErrorNotice({
  error,
  onRetry,
  onClose,
}: {
  error: string;
  onRetry?: () => void;
  onClose: () => void;
}) {
  const t = useTranslations('common');
  const path = usePathname();
  const body = errorBodyOf(error);
  const signedOut = body?.code === 'unauthorized';
  // The new chat's assistant is gone (deleted, un-shared): a plain new chat, the unsent text its draft.
  const assistantGone = Boolean(body?.fields?.assistantId);
  return (
    <div
      role="alert"
      data-chat-error
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <span>{readable(error) ?? t('somethingWrong')}</span>
      {assistantGone ? (
        // A full load: the new chat starts afresh, without the assistant, with the draft restored.
        <a href="/" className={ACTION}>
          {t('newChatInstead')}
        </a>
      ) : signedOut ? (
        <Link href={`/sign-in?next=${encodeURIComponent(path || '/')}`} className={ACTION}>
          {t('signInAgain')}
        </Link>
      ) : (
        <button type="button" onClick={onRetry ?? onClose} className={ACTION}>
          {onRetry ? t('retry') : t('close')}
        </button>
      )}
    </div>
  );
}
