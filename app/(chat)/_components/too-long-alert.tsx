'use client';

import { useTranslations } from 'next-intl';
import { MAX_MESSAGE_CHARS } from '@/lib/message-limits';

/** Whether a message's text is over the limit the server holds it to. */
export const isTooLong = (text: string) => text.trim().length > MAX_MESSAGE_CHARS;

/** Why a message cannot be sent: its length and the limit (nothing when it is within it). */
export function TooLongAlert({ text, className = '' }: { text: string; className?: string }) {
  const t = useTranslations('composer');
  if (!isTooLong(text)) return null;
  return (
    <p role="alert" className={`text-xs text-red-600 dark:text-red-400 ${className}`}>
      {t('tooLong', { length: text.trim().length, max: MAX_MESSAGE_CHARS })}
    </p>
  );
}
