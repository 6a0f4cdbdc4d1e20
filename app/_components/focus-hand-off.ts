'use client';

import { type RefCallback, useCallback, useLayoutEffect, useRef } from 'react';

/**
 * For controls that go once their work is done (a form answered, a button whose request succeeded): when
 * the focus is inside one as it goes, it moves on to `next()` (what took its place), not to the page's
 * start, where a keyboard or screen-reader user would be lost. Elsewhere (nothing of it focused: it went
 * because another tab answered, say), the focus is left alone.
 *
 * Returns the ref to put on each such element. Its cleanup runs as React removes the element, while it is
 * still in the document, so it still holds the focus; the move happens after that render is committed
 * (a layout effect of the component calling this hook, which must be the one whose render removes them).
 */
export function useFocusHandOff(next: () => HTMLElement | null | undefined): RefCallback<HTMLElement> {
  const going = useRef(false);
  useLayoutEffect(() => {
    if (!going.current) return;
    going.current = false;
    next()?.focus();
  });
  return useCallback((node: HTMLElement | null) => {
    if (!node) return;
    return () => {
      if (node.contains(document.activeElement)) going.current = true;
    };
  }, []);
}
