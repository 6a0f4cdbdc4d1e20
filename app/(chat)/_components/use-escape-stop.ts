'use client';

import { useEffect, useEffectEvent } from 'react';
import { isInputMethodKey } from '@/app/_components/input-method';

/** Whether Escape here means "stop the answer": focus in the composer, or nowhere in particular. */
function stopsHere(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return true;
  if (target === document.body || target === document.documentElement) return true;
  return target.closest('[data-composer]') !== null;
}

/**
 * Escape stops a streaming answer, unless something else used the key first (a menu, a panel, the search
 * box: they call preventDefault) or a modal dialog is open (Escape closes that instead).
 */
export function useEscapeStop(busy: boolean, onStop: () => void): void {
  const onKeyDown = useEffectEvent((e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.defaultPrevented || isInputMethodKey(e) || e.repeat) return;
    if (document.querySelector('dialog[open], [role="dialog"], [role="menu"], [role="listbox"]')) return;
    if (!stopsHere(e.target)) return;
    e.preventDefault();
    onStop();
  });

  useEffect(() => {
    if (!busy) return;
    const listener = (e: KeyboardEvent) => onKeyDown(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [busy]);
}
