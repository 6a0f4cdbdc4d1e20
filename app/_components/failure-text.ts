'use client';

import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { HttpStatusError, UnreachableError } from './request-errors';

/**
 * What a failed request shows: its error's own message, or in the UI's language "could not reach the
 * server" or "the server answered HTTP <status>" when the request brought no words of its own.
 */
export function useFailureText(): (error: unknown) => string {
  const t = useTranslations('common');
  // Texts, not the translator, so the function stays the same while the language does.
  const unreachable = t('unreachable');
  const status = t('httpStatus', { status: '{status}' });
  return useCallback(
    (error: unknown) =>
      error instanceof UnreachableError
        ? unreachable
        : error instanceof HttpStatusError && error.bare
          ? status.replace('{status}', String(error.status))
          : error instanceof Error
            ? error.message
            : String(error),
    [unreachable, status],
  );
}
