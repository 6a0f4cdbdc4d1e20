// What the history specs share (e2e/10-history.spec.ts: search and paging; e2e/51-history-import-export.spec.ts:
// export, import and keyboard shortcuts): the admin's signed-in start page, the sidebar's parts, and
// conversations made and listed through the API.
import { expect, type Page } from '@playwright/test';
import { ADMIN, originHeaders, signIn } from './helpers';

type Summary = { id: string; title: string; updatedAt: string };
type ListPage = { items: Summary[]; nextCursor: string | null };
export type Stored = {
  title: string;
  messages: Array<{ role: string; parts: Array<{ type: string; text?: string }> }>;
};

/** For test.beforeEach: every history test starts signed in as the admin, on the start page. */
export async function openAsAdmin({ page }: { page: Page }): Promise<void> {
  await signIn(page, ADMIN);
  await page.goto('/');
}

export const nav = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
export const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search conversations' });
export const searchResults = (page: Page) =>
  nav(page).getByRole('list', { name: 'Search results' }).getByRole('link');

let seq = 0;
/** One chat turn through the API; the SSE answer is read to its end, so the conversation is complete. */
export async function createConversation(page: Page, text: string): Promise<string> {
  const id = `hist-${Date.now().toString(36)}-${(seq++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const res = await page.request.post('/api/chat', {
    data: { id, message: { id: `${id}-u`, role: 'user', parts: [{ type: 'text', text }] } },
    headers: originHeaders(),
  });
  expect(res.status(), await res.text()).toBe(200);
  await res.body();
  return id;
}

export async function listPage(page: Page, cursor: string | null): Promise<ListPage> {
  const res = await page.request.get(
    cursor ? `/api/conversations?cursor=${encodeURIComponent(cursor)}` : '/api/conversations',
  );
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as ListPage;
}

export async function listAll(page: Page): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const body = await listPage(page, cursor);
    ids.push(...body.items.map((i) => i.id));
    cursor = body.nextCursor;
  } while (cursor);
  return ids;
}

export const roleAndText = (c: Stored) =>
  c.messages.map((m) => [
    m.role,
    m.parts
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join(''),
  ]);
