'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';

type Props = { onClose: () => void };

const isApple = () =>
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent);

/** The keyboard shortcuts on a native modal <dialog> (focus trap, Escape closes). Rendered only when open. */
export function ShortcutsDialog({ onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
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
    <dialog
      ref={ref}
      aria-label={t('title')}
      onClose={onClose}
      className="m-auto w-[min(24rem,90vw)] rounded-xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 className="text-base font-semibold">{t('title')}</h2>
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
        <button
          type="button"
          onClick={() => ref.current?.close()}
          className="rounded-md px-3 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800"
        >
          {t('close')}
        </button>
      </div>
    </dialog>
  );
}
