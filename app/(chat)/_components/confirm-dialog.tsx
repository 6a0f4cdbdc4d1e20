'use client';

import { useTranslations } from 'next-intl';
import { useRef } from 'react';
import { Modal } from '@/app/_components/modal';

type Props = {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Where focus goes when it closes, when not where it was on opening (see Modal). */
  returnFocus?: () => HTMLElement | null | undefined;
  /**
   * Where focus goes when it closes by its confirm button, when what is confirmed takes the control that
   * opened it away (a deleted item's row): the next item's, say.
   */
  afterConfirm?: () => HTMLElement | null | undefined;
};

/** A modal confirm (focus trap, Escape or a click outside cancels). */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  onConfirm,
  onCancel,
  returnFocus,
  afterConfirm,
}: Props) {
  const t = useTranslations('common');
  // Where the focus goes after a confirm, found as it is pressed: by the time the dialog has closed, what is
  // confirmed may have taken away the row that told where the next one is (a fast delete).
  const confirmed = useRef<{ target: HTMLElement | null | undefined } | null>(null);
  return (
    <Modal
      title={title}
      onClose={onCancel}
      returnFocus={() => {
        const after = confirmed.current;
        if (!after) return returnFocus?.();
        return after.target?.isConnected ? after.target : afterConfirm?.();
      }}
    >
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{body}</p>
      <div className="mt-5 flex justify-end gap-2">
        <button
          type="button"
          onClick={onCancel}
          className="rounded-md px-3 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
        >
          {t('cancel')}
        </button>
        <button
          type="button"
          onClick={() => {
            if (afterConfirm) confirmed.current = { target: afterConfirm() };
            onConfirm();
          }}
          className="rounded-md bg-red-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-700"
        >
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
