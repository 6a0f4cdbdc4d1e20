'use client';

import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Tooltip } from '@/app/_components/tooltip';

export type Versions = {
  /** 1-based position of the shown version among the message's versions. */
  index: number;
  count: number;
  /**
   * Shows another version (its id); resolves false when that failed. Undefined while switching is not
   * possible (an answer is being written).
   */
  onSelect?: (messageId: string) => Promise<boolean>;
  ids: string[];
};

const button =
  'grid place-items-center rounded px-1 py-0.5 text-xs text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 disabled:opacity-40 disabled:hover:bg-transparent dark:hover:bg-zinc-800 dark:hover:text-zinc-200';

/** "‹ 2 / 3 ›" under a message with more than one version (an edit, a regenerated answer). */
export function VersionSwitcher({ versions }: { versions: Versions }) {
  const t = useTranslations('versions');
  const { index, count, ids, onSelect } = versions;
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  const previous = ids[index - 2];
  const next = ids[index];
  const select = onSelect && !pending ? onSelect : undefined;
  function show(id: string | undefined) {
    if (!id || !select) return;
    setPending(true);
    setFailed(false);
    void select(id).then((ok) => {
      setPending(false);
      setFailed(!ok);
    });
  }
  return (
    <div data-versions className="mt-1 flex items-center gap-0.5 text-xs text-zinc-500">
      <Tooltip label={t('previous')}>
        <button
          type="button"
          className={button}
          aria-label={t('previous')}
          disabled={!select || !previous}
          onClick={() => show(previous)}
        >
          <ChevronLeft aria-hidden className="size-3.5" />
        </button>
      </Tooltip>
      <span data-version-counter className="tabular-nums">
        {index} / {count}
      </span>
      <Tooltip label={t('next')}>
        <button
          type="button"
          className={button}
          aria-label={t('next')}
          disabled={!select || !next}
          onClick={() => show(next)}
        >
          <ChevronRight aria-hidden className="size-3.5" />
        </button>
      </Tooltip>
      {failed && (
        <span role="alert" className="ml-1 text-red-600 dark:text-red-400">
          {t('failed')}
        </span>
      )}
    </div>
  );
}
