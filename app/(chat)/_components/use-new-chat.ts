'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { holdTyping } from './type-ahead';

/**
 * Opens a new chat. `keepTyping` when the user may type at once (the shortcut, the link clicked or pressed,
 * "/new"): what they type while it loads goes into the new chat's message box (type-ahead.ts), not the old
 * one. A new chat may have moved the URL with history.replaceState, hence the refresh: "/" renders anew.
 */
export function useNewChat(): (keepTyping?: boolean) => void {
  const router = useRouter();
  const label = useTranslations('composer')('typeAhead');
  return useCallback(
    (keepTyping = false) => {
      if (keepTyping) holdTyping(label);
      router.push('/');
      router.refresh();
    },
    [router, label],
  );
}

/** Whether a click was made by touch (a phone's keyboard is not up then: nothing to keep). */
export function byTouch(event: { nativeEvent: Event }): boolean {
  const e = event.nativeEvent;
  return typeof PointerEvent !== 'undefined' && e instanceof PointerEvent && e.pointerType === 'touch';
}
