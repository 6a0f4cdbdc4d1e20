'use client';

import type { ComponentProps } from 'react';

type Props = Omit<ComponentProps<'button'>, 'type' | 'aria-disabled'> & {
  /** Said at each use, as a plain button's would be (a form's button is a submit button by default). */
  type: 'button' | 'submit' | 'reset';
  /** Busy with its action: unavailable (aria-disabled), but still focusable and in its place. */
  busy: boolean;
};

/**
 * A button that is unavailable while busy with its action (a request on its way). It is then
 * aria-disabled, not disabled: Chrome moves the focus off a control that becomes disabled, to the page's
 * start, and a keyboard or screen-reader user would have to find their way back from there. Being only
 * aria-disabled, it can still be clicked: its click is cancelled while busy (preventDefault, and the
 * given onClick is not called), which also stops a submit button's form from being sent (Enter in a
 * field clicks the form's submit button too), so a second press cannot start the action again.
 * Controls that are not buttons (a list, a checkbox) follow the same rule, with a guard of their own.
 */
export function BusyButton({ busy, onClick, type, ...props }: Props) {
  return (
    <button
      type={type}
      {...props}
      aria-disabled={busy || undefined}
      onClick={(e) => {
        if (busy) e.preventDefault();
        else onClick?.(e);
      }}
    />
  );
}
