'use client';

import { useEffect, useEffectEvent } from 'react';
import { isInputMethodKey } from '@/app/_components/input-method';

type Handlers = { newChat: () => void; focusSearch: () => void; openHelp: () => void };

/** Whether typing here would put characters into a field (so "?" must stay a character). */
function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  )
    return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['button', 'checkbox', 'radio', 'range', 'color', 'file', 'submit', 'reset', 'image'].includes(
    target.type,
  );
}

/**
 * App-wide keys: Ctrl/⌘+Shift+O new chat, Ctrl/⌘+K search, "?" help (outside text fields).
 * Matched on `code` as well as `key`, so Shift and other keyboard layouts still work for the letters.
 */
export function useShortcuts(handlers: Handlers): void {
  const onKeyDown = useEffectEvent((e: KeyboardEvent) => {
    if (e.defaultPrevented || isInputMethodKey(e) || e.repeat) return;
    const mod = e.ctrlKey || e.metaKey;
    const letter = e.key.toLowerCase();
    if (mod && e.shiftKey && !e.altKey && (letter === 'o' || e.code === 'KeyO')) {
      e.preventDefault();
      handlers.newChat();
    } else if (mod && !e.shiftKey && !e.altKey && (letter === 'k' || e.code === 'KeyK')) {
      e.preventDefault();
      handlers.focusSearch();
    } else if (e.key === '?' && !mod && !e.altKey && !isTextField(e.target)) {
      e.preventDefault();
      handlers.openHelp();
    }
  });

  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKeyDown(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
