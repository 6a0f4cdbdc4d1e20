'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { groupByDate } from '@/lib/history-groups';
import { ConversationItem, type ConversationSummary } from './conversation-item';

type Props = {
  items: ConversationSummary[];
  hasMore: boolean;
  loadingMore: boolean;
  pathname: string;
  onLoadMore: () => void;
  onRename: (id: string, title: string) => Promise<void>;
  onDelete: (id: string) => Promise<void>;
};

// Local midnight of today, checked every minute. The server cannot know the viewer's time zone, so it renders the
// list ungrouped (null) and the headings appear once hydrated.
const subscribeToClock = (onChange: () => void) => {
  const timer = setInterval(onChange, 60_000);
  window.addEventListener('focus', onChange);
  return () => {
    clearInterval(timer);
    window.removeEventListener('focus', onChange);
  };
};
const useLocalDayStart = () =>
  useSyncExternalStore(
    subscribeToClock,
    () => new Date().setHours(0, 0, 0, 0),
    () => null,
  );

/** The history grouped by date, with a sentinel that loads the next page when it scrolls into view. */
export function HistoryList({
  items,
  hasMore,
  loadingMore,
  pathname,
  onLoadMore,
  onRename,
  onDelete,
}: Props) {
  const dayStart = useLocalDayStart();
  const t = useTranslations('history');
  const tc = useTranslations('common');
  const sentinel = useRef<HTMLButtonElement>(null);
  const count = items.length;

  // Observing anew after each page makes the observer report again if the sentinel is still in view.
  // The implicit root (the viewport) keeps a closed phone drawer, which sits off-screen, from loading pages.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || count === 0 || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) onLoadMore();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore, count, onLoadMore]);

  if (count === 0) return <p className="px-3 py-6 text-center text-sm text-zinc-500">{t('empty')}</p>;

  const groups = dayStart === null ? [{ label: null, items }] : groupByDate(items, new Date(dayStart));
  return (
    <>
      {groups.map((group) => {
        const headingId = group.label
          ? `history-${group.label.replace(/\s+/g, '-').toLowerCase()}`
          : undefined;
        return (
          <div key={group.label ?? 'all'}>
            {group.label && (
              <h2
                id={headingId}
                className="px-3 pt-3 pb-1 text-xs font-medium text-zinc-500 dark:text-zinc-400"
              >
                {t(`groups.${group.label}`)}
              </h2>
            )}
            <ul aria-labelledby={headingId} className="space-y-0.5">
              {group.items.map((item) => (
                <li key={item.id}>
                  <ConversationItem
                    item={item}
                    active={pathname === `/c/${item.id}`}
                    onRename={(title) => onRename(item.id, title)}
                    onDelete={() => onDelete(item.id)}
                  />
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      {hasMore && (
        <BusyButton
          ref={sentinel}
          type="button"
          onClick={onLoadMore}
          busy={loadingMore}
          className="mt-2 w-full py-2 text-xs text-zinc-500 hover:underline"
        >
          {loadingMore ? tc('loading') : t('loadMore')}
        </BusyButton>
      )}
    </>
  );
}
