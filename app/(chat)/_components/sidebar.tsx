'use client';

import { Menu } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { lazy, Suspense, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Tooltip } from '@/app/_components/tooltip';
import { byTouch, useNewChat } from './use-new-chat';
import { useTypedBeforeHydration } from '@/app/_components/use-typed-before-hydration';
import { notifyConversationsChanged, notifyTitleChanged } from '@/lib/conversation-events';
import { HistoryList } from './history-list';
import { SearchBox } from './search-box';
import { SearchResults } from './search-results';

/** Loaded when first opened, not with the page. */
const ShortcutsDialog = lazy(() =>
  import('./shortcuts-dialog').then((m) => ({ default: m.ShortcutsDialog })),
);
import { SidebarFooter } from './sidebar-footer';
import { type SummaryPage, useConversationList } from './use-conversation-list';
import { useConversationSearch } from './use-conversation-search';
import { usePhoneDrawer } from './use-phone-drawer';
import { useShortcuts } from './use-shortcuts';

type Props = { initial: SummaryPage; user: { name: string; email: string; role: string } };

const sendJson = (url: string, method: string, body?: unknown) =>
  fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });

/** "New chat", search, the conversation history grouped by date (loaded as it scrolls), and the account footer. */
export function Sidebar({ initial, user }: Props) {
  const t = useTranslations('assistants');
  const ts = useTranslations('sidebar');
  const [helpOpen, setHelpOpen] = useState(false);
  // A short polite status for what the list does not say itself (the list is no live region).
  // What the last rename or delete did; a failure is shown, not only announced.
  const [announcement, setAnnouncement] = useState({ text: '', failed: false });
  const announce = (text: string, failed = false) => setAnnouncement({ text, failed });
  const searchInput = useRef<HTMLInputElement>(null);
  const navRef = useRef<HTMLElement>(null);
  const { open, setOpen, button: menuButton, openWithFocus, navProps } = usePhoneDrawer(navRef);
  const pathname = usePathname();
  const list = useConversationList(initial);
  const search = useConversationSearch();
  useTypedBeforeHydration(searchInput, search.query, search.setQuery);

  // Close the phone drawer after navigating (state adjusted during render, no effect needed).
  const [shownPath, setShownPath] = useState(pathname);
  if (pathname !== shownPath) {
    setShownPath(pathname);
    setOpen(false);
  }

  const newChat = useNewChat();

  useShortcuts({
    newChat: () => newChat(true),
    focusSearch: () =>
      openWithFocus(() => {
        searchInput.current?.focus();
        searchInput.current?.select();
      }),
    openHelp: () => setHelpOpen(true),
  });

  async function rename(id: string, title: string) {
    const previous = list.page.items.find((i) => i.id === id)?.title;
    list.renameLocal(id, title);
    const res = await sendJson(`/api/conversations/${id}`, 'PATCH', { title }).catch(() => null);
    if (res?.status === 404) {
      // Deleted meanwhile (another tab, another device): it leaves the list rather than keep a stale row.
      list.removeLocal(id);
      announce(ts('renameGone'), true);
      if (pathname === `/c/${id}`) newChat();
    } else if (res?.ok) {
      notifyTitleChanged(id, title);
      announce(ts('renamed'));
    } else {
      if (previous !== undefined) list.renameLocal(id, previous);
      announce(ts('renameFailed'), true);
    }
    notifyConversationsChanged();
  }

  async function remove(id: string) {
    const items = list.page.items;
    const at = items.findIndex((i) => i.id === id);
    const neighbour = items[at + 1] ?? items[at - 1];
    const res = await sendJson(`/api/conversations/${id}`, 'DELETE');
    if (res.ok || res.status === 404) {
      // At once, so the focus lost with the row's Delete button is known below.
      flushSync(() => list.removeLocal(id));
      announce(ts('deleted'));
      // As "New chat" does: a conversation begun in this tab moved the URL with history.replaceState, and a
      // bare push of "/" left it on screen. (The new chat's message box takes the focus.)
      if (pathname === `/c/${id}`) newChat();
      else if (document.activeElement === document.body || !document.activeElement) {
        // The row went with the focus: on to the next conversation in the list (or "New chat").
        const nav = navRef.current;
        const link = neighbour && nav?.querySelector<HTMLElement>(`a[href="/c/${CSS.escape(neighbour.id)}"]`);
        (link || nav?.querySelector<HTMLElement>('a[href="/"]'))?.focus();
      }
    } else announce(ts('deleteFailed'), true);
  }

  return (
    <>
      <Tooltip label={ts('openMenu')} side="right">
        <button
          type="button"
          ref={menuButton}
          aria-label={ts('openMenu')}
          aria-expanded={open}
          onClick={() => openWithFocus()}
          className="fixed left-2 top-2 z-20 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm md:hidden dark:border-zinc-700 dark:bg-zinc-900"
        >
          <Menu aria-hidden className="size-4" />
        </button>
      </Tooltip>
      {open && (
        <button
          type="button"
          tabIndex={-1}
          aria-label={ts('closeMenu')}
          className="fixed inset-0 z-30 bg-black/40 md:hidden"
          onClick={() => setOpen(false)}
        />
      )}
      <nav
        ref={navRef}
        aria-label={ts('nav')}
        {...navProps}
        // Closed on a phone it is hidden as well as moved away: out of the tab order. Its visibility changes at
        // once on opening (the first link takes the focus) and at the end of the slide on closing.
        className={`fixed inset-y-0 left-0 z-40 flex w-72 flex-col border-r border-zinc-200 bg-zinc-50 md:visible md:static md:translate-x-0 dark:border-zinc-800 dark:bg-zinc-950 ${open ? 'translate-x-0 transition-[translate]' : 'invisible -translate-x-full transition-[translate,visibility]'}`}
      >
        <div className="p-3">
          <Link
            href="/"
            onClick={(e) => {
              e.preventDefault();
              newChat(!byTouch(e));
            }}
            className="block rounded-md border border-zinc-300 px-3 py-2 text-center text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-900"
          >
            {ts('newChat')}
          </Link>
          <Link
            href="/assistants"
            aria-current={pathname === '/assistants' ? 'page' : undefined}
            className="mt-2 block rounded-md px-3 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 aria-[current=page]:bg-zinc-200 dark:text-zinc-300 dark:hover:bg-zinc-900 dark:aria-[current=page]:bg-zinc-800"
          >
            {t('title')}
          </Link>
          <SearchBox ref={searchInput} value={search.query} onChange={search.setQuery} />
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
          {search.active ? (
            <SearchResults
              results={search.results}
              pending={search.pending}
              failed={search.failed}
              pathname={pathname}
              onNavigate={() => setOpen(false)}
            />
          ) : (
            <HistoryList
              items={list.page.items}
              hasMore={list.page.nextCursor !== null}
              loadingMore={list.loadingMore}
              pathname={pathname}
              onLoadMore={list.loadMore}
              onRename={rename}
              onDelete={remove}
            />
          )}
        </div>
        <p
          role="status"
          data-sidebar-status={announcement.failed ? 'failed' : undefined}
          className={announcement.failed ? 'px-3 pb-2 text-xs text-red-700 dark:text-red-300' : 'sr-only'}
        >
          {announcement.text}
        </p>
        <SidebarFooter user={user} onShowShortcuts={() => setHelpOpen(true)} />
      </nav>
      {helpOpen && (
        <Suspense fallback={null}>
          <ShortcutsDialog onClose={() => setHelpOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
