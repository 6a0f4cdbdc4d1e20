'use client';

import { useTranslations } from 'next-intl';
import { Modal } from '@/app/_components/modal';

type Props = {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Where focus goes when it closes, when not where it was on opening (see Modal). */
  returnFocus?: () => HTMLElement | null | undefined;
};

/** A modal confirm (focus trap, Escape or a click outside cancels). */
export function ConfirmDialog({ title, body, confirmLabel, onConfirm, onCancel, returnFocus }: Props) {
  const t = useTranslations('common');
  return (
    <Modal title={title} onClose={onCancel} returnFocus={returnFocus}>
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
          onClick={onConfirm}
          className="rounded-md bg-red-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-700"
        >
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
