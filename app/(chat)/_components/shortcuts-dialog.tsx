'use client';

import { useTranslations } from 'next-intl';
import { Modal, ModalClose } from '@/app/_components/modal';

type Props = { onClose: () => void };

const isApple = () =>
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent);

/** The keyboard shortcuts in a modal dialog (focus trap, Escape closes). Rendered only when open. */
export function ShortcutsDialog({ onClose }: Props) {
  const t = useTranslations('shortcuts');
  const mod = isApple() ? '⌘' : 'Ctrl';
  const rows: Array<[string, string[]]> = [
    [t('newChat'), [mod, 'Shift', 'O']],
    [t('search'), [mod, 'K']],
    [t('send'), ['Enter']],
    [t('newLine'), ['Shift', 'Enter']],
    [t('stop'), ['Escape']],
    [t('help'), ['?']],
  ];
  return (
    <Modal title={t('title')} onClose={onClose} className="w-[min(24rem,90vw)] p-5">
      <dl className="mt-3 space-y-2 text-sm">
        {rows.map(([action, keys]) => (
          <div key={action} className="flex items-center justify-between gap-4">
            <dt>{action}</dt>
            <dd className="flex gap-1">
              {keys.map((k) => (
                <kbd
                  key={k}
                  className="rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs dark:border-zinc-600 dark:bg-zinc-800"
                >
                  {k}
                </kbd>
              ))}
            </dd>
          </div>
        ))}
      </dl>
      <div className="mt-5 flex justify-end">
        <ModalClose
          type="button"
          className="rounded-md px-3 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
        >
          {t('close')}
        </ModalClose>
      </div>
    </Modal>
  );
}
