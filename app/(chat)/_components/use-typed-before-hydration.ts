'use client';

import { type RefObject, useLayoutEffect } from 'react';

/**
 * Keeps what was typed into a server-rendered field before React hydrated it. Hydration leaves the typed text in
 * the DOM while the state still holds the server's value, so the next render would wipe it; this adopts it once,
 * as the page hydrates. On a client-side mount the DOM holds the state's value and nothing happens.
 */
export function useTypedBeforeHydration(
  ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  value: string,
  adopt: (typed: string, field: HTMLInputElement | HTMLTextAreaElement) => void,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at hydration; later renders own the value.
  useLayoutEffect(() => {
    const field = ref.current;
    if (field && field.value !== value) adopt(field.value, field);
  }, []);
}
