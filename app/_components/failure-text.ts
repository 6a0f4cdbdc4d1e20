'use client';

import { useTranslations } from 'next-intl';
import { useCallback } from 'react';

/**
 * A request that got no answer at all (the network is down, the server is gone): what fetch says then
 * ("Failed to fetch", "Load failed", …) depends on the browser and tells the user nothing.
 */
export class UnreachableError extends Error {
  constructor(cause: unknown) {
    super('Could not reach the server.', { cause });
    this.name = 'UnreachableError';
  }
}

/** fetch, failing with {@link UnreachableError} when no answer came (an abort still fails as the abort). */
export async function fetchOrUnreachable(input: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (err) {
    if (init?.signal?.aborted) throw err;
    throw new UnreachableError(err);
  }
}

/** What a failed request shows: its error's own message, or "could not reach the server" in the UI's language. */
export function useFailureText(): (error: unknown) => string {
  // The text itself, not the translator, so the function stays the same while the language does.
  const unreachable = useTranslations('common')('unreachable');
  return useCallback(
    (error: unknown) =>
      error instanceof UnreachableError
        ? unreachable
        : error instanceof Error
          ? error.message
          : String(error),
    [unreachable],
  );
}
