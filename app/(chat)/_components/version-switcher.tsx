'use client';

import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { type MouseEvent, useEffect, useRef, useState } from 'react';
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

/**
 * A switch made from one of a switcher's buttons: the version shown next is another message, with a switcher
 * of its own, and the old one goes with its button. The new one takes the focus back (its button of the same
 * direction, the other one when that is disabled at the end), so arrows can go on by keyboard.
 */
let focusAfterSwitch: { id: string; direction: 'previous' | 'next' } | null = null;

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
  const buttons = { previous: useRef<HTMLButtonElement>(null), next: useRef<HTMLButtonElement>(null) };
  const shown = ids[index - 1];

  // biome-ignore lint/correctness/useExhaustiveDependencies: once the version this switcher shows is on screen
  useEffect(() => {
    if (!focusAfterSwitch || focusAfterSwitch.id !== shown) return;
    const { direction } = focusAfterSwitch;
    focusAfterSwitch = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    const order =
      direction === 'previous' ? [buttons.previous, buttons.next] : [buttons.next, buttons.previous];
    order.find((b) => b.current && !b.current.disabled)?.current?.focus();
  }, [shown]);

  function show(id: string | undefined, direction: 'previous' | 'next', e: MouseEvent<HTMLButtonElement>) {
    if (!id || !select) return;
    setPending(true);
    setFailed(false);
    focusAfterSwitch = e.currentTarget === document.activeElement ? { id, direction } : null;
    void select(id).then((ok) => {
      setPending(false);
      setFailed(!ok);
      if (!ok) focusAfterSwitch = null;
    });
  }
  return (
    <div data-versions className="mt-1 flex items-center gap-0.5 text-xs text-zinc-500">
      <Tooltip label={t('previous')}>
        <button
          ref={buttons.previous}
          type="button"
          className={button}
          aria-label={t('previous')}
          disabled={!select || !previous}
          onClick={(e) => show(previous, 'previous', e)}
        >
          <ChevronLeft aria-hidden className="size-3.5" />
        </button>
      </Tooltip>
      <span data-version-counter className="tabular-nums">
        {index} / {count}
      </span>
      <Tooltip label={t('next')}>
        <button
          ref={buttons.next}
          type="button"
          className={button}
          aria-label={t('next')}
          disabled={!select || !next}
          onClick={(e) => show(next, 'next', e)}
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
