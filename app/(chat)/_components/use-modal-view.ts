'use client';

import { type RefObject, useContext, useEffect, useEffectEvent, useLayoutEffect, useRef } from 'react';
import { isInputMethodKey } from '@/app/_components/input-method';
import { inertOutside } from './inert-outside';
import { KeepMountedContext } from './keep-mounted';

/** What Tab can reach in the view (an iframe stands for everything in it). */
const TABBABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"])';

type Options = {
  /** The view (null while it is not shown), lifted over the page while `open`. */
  view: HTMLElement | null;
  open: boolean;
  /** Escape (one not meant for an input method or already used, e.g. by a dialog opened over it). */
  onClose: () => void;
  /** The button that opens and closes it: the focus goes there when it opens (unless already inside) and closes. */
  button: RefObject<HTMLElement | null>;
  /** The app's frame: a focus there when it closes stays (the app, in use, asked to be inline again). */
  frame: RefObject<HTMLElement | null>;
  /** The view's place in the page (its parent, ours): it keeps the view's height while the view is lifted out. */
  slot: RefObject<HTMLElement | null>;
};

/**
 * A view of the page as a modal dialog while `open` (an MCP App's full screen), where it is: the rest of the
 * page is inert (out of the tab order, the pointer's and screen readers' reach), the focus moves in and
 * comes back to the button, Escape closes, and Tab goes round the view: `wrapFocus` is for two guards at
 * its edges (empty, focusable, `data-focus-guard`) that Tab past either end reaches, rather than the
 * browser's address bar (the app's frame is cross-origin: its Tab keys never reach this page). Nothing is
 * re-parented or portalled, which would reload the app's iframe and lose its state. Its place in the page
 * keeps its height, so the (windowed) message list behind neither shrinks nor scrolls while it is open, and
 * its message stays mounted while it is open however far new messages behind it scroll that list.
 */
export function useModalView({ view, open, onClose, button, frame, slot }: Options) {
  const close = useEffectEvent(onClose);
  const keepMounted = useContext(KeepMountedContext);
  const inlineHeight = useRef(0);

  // The view's height in the page, measured while it is there.
  useEffect(() => {
    const el = slot.current;
    if (open || !view || !el) return;
    const observer = new ResizeObserver(() => {
      inlineHeight.current = el.offsetHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [open, view, slot]);

  useLayoutEffect(() => {
    const place = slot.current;
    if (!open || !view) return;
    if (place) place.style.height = `${inlineHeight.current}px`;
    const message = place?.closest('[data-message-id]')?.getAttribute('data-message-id');
    const release = message ? keepMounted(message) : () => {};
    const restore = inertOutside(view);
    if (!view.contains(document.activeElement)) button.current?.focus({ preventScroll: true });
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || isInputMethodKey(e)) return;
      e.preventDefault();
      close();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      restore();
      if (place) place.style.height = '';
      // Back in the page where it was (new messages may have scrolled the list away from it meanwhile); its
      // message is let go once the windowed list has seen that scroll (its scroll event comes before the
      // next frame's callbacks), or it would be unmounted with the focus on it.
      const box = place?.getBoundingClientRect();
      if (box && (box.bottom <= 0 || box.top >= window.innerHeight))
        place?.scrollIntoView({ block: 'nearest' });
      requestAnimationFrame(() => requestAnimationFrame(release));
    };
  }, [open, view, button, slot, keepMounted]);

  // Closed (not unmounted, and not while the app holds the focus): the focus back on the button, the page
  // behind left where it was.
  const wasOpen = useRef(open);
  useLayoutEffect(() => {
    if (open === wasOpen.current) return;
    wasOpen.current = open;
    if (!open && document.activeElement !== frame.current) button.current?.focus({ preventScroll: true });
  }, [open, button, frame]);

  /** A guard got the focus: on to the other end of the view (Shift+Tab before the start reaches the frame). */
  function wrapFocus(edge: 'start' | 'end') {
    const list = Array.from(view?.querySelectorAll<HTMLElement>(TABBABLE) ?? []).filter(
      (el) => !el.hasAttribute('data-focus-guard'),
    );
    (edge === 'start' ? list.at(-1) : list[0])?.focus();
  }

  return { wrapFocus };
}
