import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';

type Props = { title: string; onClose: () => void; children: ReactNode };

/** An information panel shown above the composer (from `/tools` and `/help`); Escape in the message box closes it. */
export function ComposerPanel({ title, onClose, children }: Props) {
  const t = useTranslations('common');
  return (
    <section
      aria-label={title}
      className="absolute inset-x-0 bottom-full z-20 mb-2 max-h-[min(24rem,60vh)] overflow-y-auto rounded-xl border border-zinc-200 bg-white p-3 text-sm text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold">{title}</h2>
        <button
          type="button"
          onClick={onClose}
          className="rounded px-2 py-0.5 text-xs text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800"
        >
          {t('close')}
        </button>
      </div>
      {children}
    </section>
  );
}
