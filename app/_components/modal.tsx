'use client';

import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, useState } from 'react';
import { isInputMethodKey } from './input-method';

type Props = {
  /** The dialog's heading and accessible name. */
  title: ReactNode;
  /** Called when the dialog asks to close: Escape, a click outside, or Modal.Close. */
  onClose: () => void;
  children: ReactNode;
  /** Width and padding of the panel (Tailwind classes). */
  className?: string;
  /** Classes of the heading. */
  titleClassName?: string;
  /** Whether a click outside closes it (off for forms, where a stray click must not lose typing). */
  closeOnOutsideClick?: boolean;
  /** An accessible name other than the title (e.g. "Arguments for x" beside a heading "/x"). */
  label?: string;
  /** Extra attributes on the dialog element (data-* hooks). */
  data?: Record<`data-${string}`, string>;
  /**
   * Where focus goes when it closes, when that is not where it was when it opened (a dialog opened from a
   * menu item, which is gone by then).
   */
  returnFocus?: () => HTMLElement | null | undefined;
  /**
   * Where the panel sits: centred, or at a fixed distance from the top (as command palettes do), growing
   * downwards, for a form whose fields open a list under them: centred, it would jump up by half the list's
   * height when the list opens, and the field being typed in would move under the user's eyes or finger.
   */
  placement?: 'center' | 'top';
};

const PLACEMENT = {
  center: 'top-1/2 max-h-[90dvh] -translate-y-1/2',
  top: 'top-[8dvh] max-h-[84dvh]',
};

/** Whether an Escape is meant for an open list of a field (a combobox's suggestions), not for the dialog. */
function closesAList(e: KeyboardEvent): boolean {
  const target = e.target;
  return (
    target instanceof HTMLElement &&
    target.getAttribute('role') === 'combobox' &&
    target.getAttribute('aria-expanded') === 'true'
  );
}

/** The element that has the focus, unless that is nothing (the page itself). */
function focusedElement(): HTMLElement | null {
  if (typeof document === 'undefined') return null;
  const el = document.activeElement;
  return el instanceof HTMLElement && el !== document.body ? el : null;
}

/**
 * A modal dialog, rendered only while open (the caller mounts it), on Radix UI's Dialog: focus moves in
 * and is trapped, Escape closes (not one meant for an input method), the page behind is inert to pointer
 * and screen reader, and focus returns to where it was when it closes. Named by its title (role "dialog").
 */
export function Modal({
  title,
  onClose,
  children,
  className = 'w-[min(26rem,90vw)] p-5',
  titleClassName = 'text-base font-semibold',
  closeOnOutsideClick = true,
  label,
  data,
  returnFocus,
  placement = 'center',
}: Props) {
  const naming = label ? { 'aria-label': label, 'aria-labelledby': undefined } : {};
  // What had the focus when it opened (the button that opened it): Radix gives the focus back only to a
  // Dialog.Trigger, which these dialogs have none of (the caller mounts them), so it is done here.
  const [opener] = useState(focusedElement);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          {...data}
          {...naming}
          aria-describedby={undefined}
          onPointerDownOutside={closeOnOutsideClick ? undefined : (e) => e.preventDefault()}
          // Escape that closes an input method's candidates (typing Chinese in a field), or the suggestions
          // under a field, is not a close. (Radix listens on the document before the field hears the key.)
          onEscapeKeyDown={(e) => (isInputMethodKey(e) || closesAList(e)) && e.preventDefault()}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            const target = returnFocus?.();
            if (target) target.focus();
            // Unless what closed it put the focus somewhere on purpose (the message box, say).
            else if (!focusedElement() && opener?.isConnected) opener.focus();
          }}
          className={`fixed left-1/2 z-50 -translate-x-1/2 ${PLACEMENT[placement]} overflow-y-auto rounded-xl border border-zinc-200 bg-white text-zinc-900 shadow-xl focus:outline-none dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 ${className}`}
        >
          <Dialog.Title className={titleClassName}>{title}</Dialog.Title>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A button that closes the surrounding Modal (through its onClose). */
export const ModalClose = Dialog.Close;
