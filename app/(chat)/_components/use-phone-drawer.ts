'use client';

import { type FocusEvent, type KeyboardEvent, type RefObject, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { isInputMethodKey } from '@/app/_components/input-method';

/**
 * The sidebar as a drawer on a phone-wide screen, for the keyboard as well as the finger: the menu button
 * opens it with the focus on its first item; Escape closes it and gives the focus back to the button; the
 * focus leaving it for the page behind (Tab past its end) closes it. (Closed, it is out of the tab order:
 * the nav's classes hide it below `md`.)
 */
export function usePhoneDrawer(nav: RefObject<HTMLElement | null>) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);

  /** Opens it now (it can take the focus at once) and moves the focus to its first link. */
  function openWithFocus(
    focus: () => void = () => nav.current?.querySelector<HTMLElement>('a[href]')?.focus(),
  ) {
    flushSync(() => setOpen(true));
    focus();
  }

  const navProps = {
    onKeyDown(e: KeyboardEvent<HTMLElement>) {
      // A field's own Escape (a rename, the search box) and a dialog's (portalled from a row) are theirs.
      if (!open || e.key !== 'Escape' || e.defaultPrevented || isInputMethodKey(e)) return;
      if (e.target instanceof HTMLInputElement || !e.currentTarget.contains(e.target as Node)) return;
      e.preventDefault();
      setOpen(false);
      button.current?.focus();
    },
    onBlur(e: FocusEvent<HTMLElement>) {
      const to = e.relatedTarget;
      if (open && to instanceof Element && !e.currentTarget.contains(to) && !to.closest('[role="dialog"]'))
        setOpen(false);
    },
  };

  return { open, setOpen, button, openWithFocus, navProps };
}
