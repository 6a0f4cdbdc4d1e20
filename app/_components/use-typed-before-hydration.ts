'use client';

import { type RefObject, useLayoutEffect } from 'react';

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * Keeps what was typed (or chosen) in a server-rendered field before React hydrated it. Hydration leaves the
 * user's value in the DOM while the state still holds the server's, so the next render would put the server's
 * back (and until then the state, not what the user sees, is what is used); this adopts the DOM's value once,
 * as the page hydrates. On a client-side mount the DOM holds the state's value and nothing happens.
 */
export function useTypedBeforeHydration<F extends Field>(
  ref: RefObject<F | null>,
  value: string,
  adopt: (typed: string, field: F) => void,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at hydration; later renders own the value.
  useLayoutEffect(() => {
    const field = ref.current;
    if (field && field.value !== value) adopt(field.value, field);
  }, []);
}
