'use client';

/**
 * Typing that runs ahead of a new chat. "New chat" (its link, Ctrl+Shift+O, "/new") is a navigation of
 * ~100 ms or more before the new chat's message box exists; a user who starts typing at once had their first
 * characters typed into the old conversation's box (kept as its draft there) or into the link (lost). While
 * the new chat loads, the focus is held by a field of its own (outside React, so the navigation leaves it
 * alone), which the next message box to mount takes the text of (`takeHeldTyping`). Should no box come (the
 * navigation failed), the text goes back where the focus was, as if typed there.
 */

/**
 * How long the text is held, unseen, before it goes back to the box it was typed after (a navigation that
 * hangs or failed): long enough for a slow page, short enough that nobody types blind for long.
 */
const HOLD_MS = 3_000;

let held: { field: HTMLTextAreaElement; from: Element | null; timer: ReturnType<typeof setTimeout> } | null =
  null;

/** Holds what is typed from now until the next message box mounts; `label` names the field for screen readers. */
export function holdTyping(label: string): void {
  const from = held ? held.from : document.activeElement;
  const typed = held ? release() : '';
  const field = document.createElement('textarea');
  field.setAttribute('aria-label', label);
  field.dataset.typeAhead = '';
  field.value = typed;
  // Focusable (not display:none), but out of sight and out of layout.
  Object.assign(field.style, {
    position: 'fixed',
    top: '0',
    left: '0',
    width: '1px',
    height: '1px',
    opacity: '0',
    pointerEvents: 'none',
  });
  document.body.append(field);
  field.focus({ preventScroll: true });
  held = { field, from, timer: setTimeout(giveBack, HOLD_MS) };
}

/** The text typed since `holdTyping` ('' when nothing is held); the field is gone after. */
export function takeHeldTyping(): string {
  return held ? release() : '';
}

function release(): string {
  if (!held) return '';
  const { field, timer } = held;
  held = null;
  clearTimeout(timer);
  field.remove();
  return field.value;
}

/** No message box came: the text goes into the field the focus came from, when it is one and still there. */
function giveBack(): void {
  const from = held?.from;
  const typed = release();
  if (!(from instanceof HTMLElement) || !from.isConnected) return;
  from.focus();
  if (!(from instanceof HTMLTextAreaElement || from instanceof HTMLInputElement)) return;
  // As if typed (an input event the page's own handler sees), at the end of what is there.
  from.setSelectionRange(from.value.length, from.value.length);
  if (typed) document.execCommand('insertText', false, typed);
}
