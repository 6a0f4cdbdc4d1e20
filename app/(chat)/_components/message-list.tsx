'use client';

import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import { useTranslations } from 'next-intl';
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ChatMessage } from '@/lib/schemas/chat';
import { KeepMountedContext } from './keep-mounted';
import { withKept } from './kept-range';

type Props = {
  messages: ChatMessage[];
  /** One message (a MessageItem); `highlighted` marks the message a search result opened. */
  renderItem: (message: ChatMessage, index: number) => ReactNode;
  /** More, older messages exist on the server: fetched when the reader nears the top. */
  hasOlder: boolean;
  loadOlder: () => Promise<boolean>;
  /** Above the list (notices, the empty state). */
  before?: ReactNode;
  /** Below the list (the error notice). */
  after?: ReactNode;
};

/** px from the bottom that still counts as "reading the end" (new text keeps it in view). */
const STICKY_PX = 80;
const GAP_PX = 24;

const toBottom = (el: HTMLElement | null) => {
  if (el) el.scrollTop = el.scrollHeight;
};

/**
 * The messages of a conversation as a windowed list (@tanstack/react-virtual): only the messages near the
 * viewport are mounted (and those kept, see KeepMountedContext), each measured as it renders. Opens at the end (or at the `#m-<id>` message a
 * search result links to), follows a streaming answer while the reader is at the end, and fetches older
 * messages when the reader scrolls near the top, keeping what is on screen in place.
 * Trade-off: the browser's find-in-page and Tab order see only the mounted messages (the sidebar search
 * covers the whole conversation).
 */
export function MessageList({ messages, renderItem, hasOlder, loadOlder, before, after }: Props) {
  const t = useTranslations('message');
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const sticky = useRef(true);
  const loading = useRef(false);
  // Messages kept mounted wherever the list is (an MCP App full screen in them: KeepMountedContext).
  const [kept, setKept] = useState<ReadonlySet<string>>(() => new Set());
  const keep = useCallback((id: string) => {
    setKept((s) => new Set(s).add(id));
    return () =>
      setKept((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      });
  }, []);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 160,
    getItemKey: (i) => messages[i]?.id ?? i,
    overscan: 8,
    gap: GAP_PX,
    scrollMargin: margin,
    initialRect: { width: 768, height: 900 },
    // The library's own (one function, so its range is not worked out again each render) unless some are kept.
    rangeExtractor:
      kept.size === 0
        ? defaultRangeExtractor
        : (range) => withKept(defaultRangeExtractor(range), kept, messages),
  });

  useLayoutEffect(() => {
    setMargin(listRef.current?.offsetTop ?? 0);
  });

  // Whatever grows (a streaming answer, a message measured taller than its estimate) keeps the end in view
  // while the reader is there.
  useEffect(() => {
    const content = contentRef.current;
    if (!content) return;
    const observer = new ResizeObserver(() => {
      if (sticky.current) toBottom(scrollRef.current);
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, []);

  // A new message (sent, or the answer starting) brings the end back into view.
  const count = messages.length;
  const lastId = messages.at(-1)?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the newest message changes
  useLayoutEffect(() => {
    if (highlighted) return;
    sticky.current = true;
    toBottom(scrollRef.current);
  }, [lastId]);

  // Opened from a search result (`#m-<id>`): that message, highlighted, instead of the end; older pages are
  // fetched until it is there.
  const anchored = useRef(false);
  // Counts finished page loads, so the search goes on after each one whenever its messages arrive.
  const [anchorLoads, setAnchorLoads] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per conversation, after the first render
  useEffect(() => {
    if (anchored.current) return;
    if (!window.location.hash.startsWith('#m-')) {
      anchored.current = true;
      return;
    }
    const target = window.location.hash.slice(3);
    const index = messages.findIndex((m) => m.id === target);
    if (index < 0) {
      if (hasOlder && !loading.current) {
        loading.current = true;
        void loadOlder().finally(() => {
          loading.current = false;
          setAnchorLoads((n) => n + 1);
        });
      } else if (!hasOlder) anchored.current = true;
      return;
    }
    anchored.current = true;
    sticky.current = false;
    setHighlighted(target);
    virtualizer.scrollToIndex(index, { align: 'center' });
  }, [count, hasOlder, anchorLoads]);

  // Prepending older messages keeps the reader's place: same distance from the bottom as before.
  const firstId = messages[0]?.id;
  const fromBottom = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when older messages were prepended
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && fromBottom.current !== null && !highlighted)
      el.scrollTop = el.scrollHeight - fromBottom.current;
    fromBottom.current = null;
  }, [firstId]);

  /** Within two screens of the top: fetch the next older page (again after it arrives, if still there). */
  function nearTop() {
    const el = scrollRef.current;
    if (!el || !hasOlder || loading.current || !anchored.current || el.scrollTop > 2 * el.clientHeight)
      return;
    loading.current = true;
    fromBottom.current = el.scrollHeight - el.scrollTop;
    void loadOlder().finally(() => {
      loading.current = false;
      window.requestAnimationFrame(() => nearTopRef.current());
    });
  }
  const nearTopRef = useRef(nearTop);
  nearTopRef.current = nearTop;

  // A page too short to scroll has no scroll events: check once per change of the loaded messages.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the number of loaded messages changes
  useEffect(() => nearTopRef.current(), [count]);

  function onScroll() {
    const el = scrollRef.current;
    if (!el) return;
    sticky.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICKY_PX;
    nearTop();
  }

  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scrollRef} onScroll={onScroll} className="relative min-h-0 flex-1 overflow-y-auto px-4 py-6">
      <div ref={contentRef} className="mx-auto flex max-w-3xl flex-col gap-6">
        {before}
        {hasOlder && (
          <p data-older-messages className="text-center text-xs text-zinc-500">
            {t('olderLoading')}
          </p>
        )}
        {messages.length > 0 && (
          <div
            ref={listRef}
            data-message-list
            className="relative w-full"
            style={{ height: virtualizer.getTotalSize() }}
          >
            <KeepMountedContext value={keep}>
              {items.map((item) => {
                const message = messages[item.index];
                if (!message) return null;
                return (
                  <div
                    key={item.key}
                    data-index={item.index}
                    data-message-id={message.id}
                    ref={virtualizer.measureElement}
                    className={`absolute left-0 w-full${highlighted === message.id ? ' search-hit' : ''}`}
                    // Placed by `top`, not a transform: a transformed box would hold an MCP App's full-screen
                    // view (position: fixed) inside the message instead of over the page.
                    style={{ top: item.start - margin }}
                  >
                    {renderItem(message, item.index)}
                  </div>
                );
              })}
            </KeepMountedContext>
          </div>
        )}
        {after}
      </div>
    </div>
  );
}
