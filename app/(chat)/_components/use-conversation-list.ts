'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { onConversationsChanged, onTitleChanged } from '@/lib/conversation-events';
import { appendPage, type ConversationPage, mergeFirstPage } from '@/lib/conversation-pages';
import type { ConversationSummary } from './conversation-item';

export type SummaryPage = ConversationPage<ConversationSummary>;

const getPage = async (cursor?: string): Promise<SummaryPage | null> => {
  const url = cursor ? `/api/conversations?cursor=${encodeURIComponent(cursor)}` : '/api/conversations';
  try {
    const res = await fetch(url, { cache: 'no-store' });
    return res.ok ? ((await res.json()) as SummaryPage) : null;
  } catch {
    return null;
  }
};

/**
 * The loaded conversation pages: page 1 is re-fetched and merged in front whenever the list changes (a newer
 * server render counts too), further pages are appended on demand, and no id is ever shown twice.
 */
export function useConversationList(initial: SummaryPage) {
  const [page, setPage] = useState<SummaryPage>(initial);
  const [loadingMore, setLoadingMore] = useState(false);
  const loading = useRef(false);
  const refreshSeq = useRef(0);

  // router.refresh() renders the layout again with a fresh page 1 (state adjusted during render, no effect needed).
  const [shownInitial, setShownInitial] = useState(initial);
  if (initial !== shownInitial) {
    setShownInitial(initial);
    setPage((p) => mergeFirstPage(p, initial));
  }

  const refresh = useCallback(async () => {
    const seq = ++refreshSeq.current;
    const first = await getPage();
    // Only the newest answer counts: an older one arriving late would bring back what was just deleted.
    if (first && seq === refreshSeq.current) setPage((p) => mergeFirstPage(p, first));
  }, []);

  useEffect(() => onConversationsChanged(() => void refresh()), [refresh]);

  const cursor = page.nextCursor;
  const loadMore = useCallback(async () => {
    if (!cursor || loading.current) return;
    loading.current = true;
    setLoadingMore(true);
    const next = await getPage(cursor);
    if (next) setPage((p) => appendPage(p, cursor, next));
    loading.current = false;
    setLoadingMore(false);
  }, [cursor]);

  const removeLocal = useCallback(
    (id: string) => setPage((p) => ({ ...p, items: p.items.filter((i) => i.id !== id) })),
    [],
  );
  const renameLocal = useCallback(
    (id: string, title: string) =>
      setPage((p) => ({ ...p, items: p.items.map((i) => (i.id === id ? { ...i, title } : i)) })),
    [],
  );

  // A title generated after a first answer (or a rename elsewhere) shows at once.
  useEffect(() => onTitleChanged(renameLocal), [renameLocal]);

  return { page, loadingMore, loadMore, refresh, removeLocal, renameLocal };
}
