'use client';

import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useCallback, useEffect, useState } from 'react';
import { notifyConversationsChanged, onConversationsChanged } from '@/lib/conversation-events';
import { ConversationItem, type ConversationSummary } from './conversation-item';

type Page = { items: ConversationSummary[]; nextCursor: string | null };
type Props = { initial: Page; user: { name: string; email: string; role: string } };

const sendJson = (url: string, method: string, body?: unknown) =>
  fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });

/** The conversation list (newest first), "New chat", and the account menu. */
export function Sidebar({ initial, user }: Props) {
  const [page, setPage] = useState<Page>(initial);
  const [open, setOpen] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const pathname = usePathname();
  const router = useRouter();

  const reload = useCallback(async () => {
    const res = await fetch('/api/conversations', { cache: 'no-store' });
    if (res.ok) setPage((await res.json()) as Page);
  }, []);

  useEffect(() => onConversationsChanged(() => void reload()), [reload]);
  // Close the phone drawer after navigating (state adjusted during render, no effect needed).
  const [shownPath, setShownPath] = useState(pathname);
  if (pathname !== shownPath) {
    setShownPath(pathname);
    setOpen(false);
  }

  async function loadMore() {
    if (!page.nextCursor) return;
    setLoadingMore(true);
    const res = await fetch(`/api/conversations?cursor=${encodeURIComponent(page.nextCursor)}`, { cache: 'no-store' });
    if (res.ok) {
      const next = (await res.json()) as Page;
      setPage((p) => ({ items: [...p.items, ...next.items.filter((n) => !p.items.some((i) => i.id === n.id))], nextCursor: next.nextCursor }));
    }
    setLoadingMore(false);
  }

  async function rename(id: string, title: string) {
    await sendJson(`/api/conversations/${id}`, 'PATCH', { title });
    notifyConversationsChanged();
  }

  async function remove(id: string) {
    const res = await sendJson(`/api/conversations/${id}`, 'DELETE');
    if (res.ok || res.status === 404) {
      setPage((p) => ({ ...p, items: p.items.filter((i) => i.id !== id) }));
      if (pathname === `/c/${id}`) router.push('/');
    }
  }

  async function signOut() {
    await sendJson('/api/auth/sign-out', 'POST', {});
    window.location.assign('/sign-in');
  }

  return (
    <>
      <button
        type="button"
        aria-label="Open menu"
        onClick={() => setOpen(true)}
        className="fixed left-2 top-2 z-20 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm md:hidden dark:border-zinc-700 dark:bg-zinc-900"
      >
        ☰
      </button>
      {open && (
        <button type="button" aria-label="Close menu" className="fixed inset-0 z-30 bg-black/40 md:hidden" onClick={() => setOpen(false)} />
      )}
      <nav
        aria-label="Conversations"
        className={`fixed inset-y-0 left-0 z-40 flex w-72 flex-col border-r border-zinc-200 bg-zinc-50 transition-transform md:static md:translate-x-0 dark:border-zinc-800 dark:bg-zinc-950 ${open ? 'translate-x-0' : '-translate-x-full'}`}
      >
        <div className="p-3">
          <Link
            href="/"
            onClick={(e) => {
              // A new chat may have moved the URL with history.replaceState; refresh so "/" renders a fresh conversation.
              e.preventDefault();
              router.push('/');
              router.refresh();
            }}
            className="block rounded-md border border-zinc-300 px-3 py-2 text-center text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-900"
          >
            New chat
          </Link>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
          {page.items.length === 0 ? (
            <p className="px-3 py-6 text-center text-sm text-zinc-500">No conversations yet.</p>
          ) : (
            <ul className="space-y-0.5">
              {page.items.map((item) => (
                <li key={item.id}>
                  <ConversationItem
                    item={item}
                    active={pathname === `/c/${item.id}`}
                    onRename={(title) => rename(item.id, title)}
                    onDelete={() => remove(item.id)}
                  />
                </li>
              ))}
            </ul>
          )}
          {page.nextCursor && (
            <button type="button" onClick={() => void loadMore()} disabled={loadingMore} className="mt-2 w-full py-2 text-xs text-zinc-500 hover:underline">
              {loadingMore ? 'Loading…' : 'Load more'}
            </button>
          )}
        </div>
        <div className="border-t border-zinc-200 p-3 text-sm dark:border-zinc-800">
          <p className="truncate font-medium" title={user.email}>
            {user.name}
          </p>
          <p className="truncate text-xs text-zinc-500">{user.email}</p>
          <div className="mt-2 flex gap-3 text-xs">
            {user.role === 'admin' && (
              <Link href="/admin/users" className="text-blue-600 hover:underline">
                Admin
              </Link>
            )}
            <button type="button" onClick={() => void signOut()} className="text-zinc-600 hover:underline dark:text-zinc-400">
              Sign out
            </button>
          </div>
        </div>
      </nav>
    </>
  );
}
