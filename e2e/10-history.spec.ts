import { expect, type Page, test } from '@playwright/test';
import {
  ADMIN,
  assistantMessages,
  composer,
  conversationIdFromUrl,
  originHeaders,
  send,
  signIn,
} from './helpers';

type Summary = { id: string; title: string; updatedAt: string };
type ListPage = { items: Summary[]; nextCursor: string | null };
type Stored = {
  title: string;
  messages: Array<{ role: string; parts: Array<{ type: string; text?: string }> }>;
};

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/');
});

const nav = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search conversations' });
const searchResults = (page: Page) =>
  nav(page).getByRole('list', { name: 'Search results' }).getByRole('link');

let seq = 0;
/** One chat turn through the API; the SSE answer is read to its end, so the conversation is complete. */
async function createConversation(page: Page, text: string): Promise<string> {
  const id = `hist-${Date.now().toString(36)}-${(seq++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const res = await page.request.post('/api/chat', {
    data: { id, message: { id: `${id}-u`, role: 'user', parts: [{ type: 'text', text }] } },
    headers: originHeaders(),
  });
  expect(res.status(), await res.text()).toBe(200);
  await res.body();
  return id;
}

async function listPage(page: Page, cursor: string | null): Promise<ListPage> {
  const res = await page.request.get(
    cursor ? `/api/conversations?cursor=${encodeURIComponent(cursor)}` : '/api/conversations',
  );
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as ListPage;
}

async function listAll(page: Page): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const body = await listPage(page, cursor);
    ids.push(...body.items.map((i) => i.id));
    cursor = body.nextCursor;
  } while (cursor);
  return ids;
}

const roleAndText = (c: Stored) =>
  c.messages.map((m) => [
    m.role,
    m.parts
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join(''),
  ]);

test('search finds a word of an answer, highlights it, and opens the conversation at the message', async ({
  page,
}) => {
  await send(page, '[[say:the zebra-quokka-77 lives here]]');
  await expect(assistantMessages(page).last()).toHaveText(/the zebra-quokka-77 lives here/);
  const id = conversationIdFromUrl(page);
  await expect(nav(page).getByRole('heading', { name: 'Today' })).toBeVisible();

  await page.goto('/');
  await searchBox(page).fill('quokka');
  await expect(searchResults(page)).toHaveCount(1);
  const hit = searchResults(page).first();
  await expect(hit.locator('mark').first()).toContainText(/quokka/i);
  await expect(hit).toHaveAttribute('href', new RegExp(`^/c/${id}#m-`));
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/c/${id}#m-`));
  const anchor = new URL(page.url()).hash.slice(1);
  await expect(page.locator(`[id="${anchor}"]`)).toBeVisible();

  // Escape clears the search and brings the dated history back.
  await searchBox(page).press('Escape');
  await expect(searchBox(page)).toHaveValue('');
  await expect(nav(page).getByRole('heading', { name: 'Today' })).toBeVisible();
  await expect(nav(page).getByRole('list', { name: 'Search results' })).toHaveCount(0);

  await searchBox(page).fill('nothing-matches-this-xyzzy');
  await expect(nav(page).getByText('No matches')).toBeVisible();
});

test('a word that only the answer holds leads to the assistant message', async ({ page }) => {
  // [[say:…]] repeats its text in the user message, so an imported conversation provides an answer-only word.
  const data = {
    title: 'Where does it live',
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'Where does the animal live?' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'The wombat-numbat-88 lives in the hills.' }] },
    ],
  };
  const res = await page.request.post('/api/conversations/import', { data, headers: originHeaders() });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.reload();
  // Typed right after the reload, the query can land before hydration and be lost: typed again until it counts.
  await expect(async () => {
    await searchBox(page).fill('numbat');
    await expect(searchResults(page)).toHaveCount(1, { timeout: 2000 });
  }).toPass();
  await expect(searchResults(page).first().locator('mark')).toHaveText(['numbat']);
  await searchResults(page).first().click();
  await expect(page).toHaveURL(new RegExp(`/c/${id}#m-`));
  const anchor = new URL(page.url()).hash.slice(1);
  await expect(page.locator(`[id="${anchor}"]`)).toHaveAttribute('data-role', 'assistant');
});

test('paging with a cursor shows every conversation exactly once while new ones arrive', async ({ page }) => {
  test.setTimeout(120_000);
  const created: string[] = [];
  for (let batch = 0; batch < 7; batch++) {
    created.push(
      ...(await Promise.all(
        Array.from({ length: 5 }, (_, i) => createConversation(page, `[[say:page filler ${batch}-${i}]]`)),
      )),
    );
  }
  const before = await listAll(page);
  expect(new Set(before).size).toBe(before.length);
  for (const id of created) expect(before).toContain(id);

  const seen: string[] = [];
  const added: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const body = await listPage(page, cursor);
    expect(body.items.length).toBeLessThanOrEqual(30);
    seen.push(...body.items.map((i) => i.id));
    cursor = body.nextCursor;
    pages++;
    // New conversations land on top, between the pages already read and the ones still to come.
    if (pages === 1)
      for (let i = 0; i < 3; i++)
        added.push(await createConversation(page, `[[say:arrived while paging ${i}]]`));
  } while (cursor);

  expect(pages).toBeGreaterThan(1);
  expect(seen.length - new Set(seen).size, 'ids seen twice').toBe(0);
  expect(
    before.filter((id) => !seen.includes(id)),
    'ids missing',
  ).toEqual([]);
  for (const id of seen.filter((id) => !before.includes(id))) expect(added).toContain(id);

  // The sidebar loads the remaining pages as it scrolls, without duplicates.
  const total = (await listAll(page)).length;
  await page.goto('/');
  const links = nav(page).locator('a[href^="/c/"]');
  await expect
    .poll(
      async () => {
        // Scroll the list to its end, so the sentinel comes into view; the "Load more" button is never clicked.
        await nav(page).evaluate((el) => {
          for (const box of el.querySelectorAll('div')) box.scrollTop = box.scrollHeight;
        });
        return links.count();
      },
      { timeout: 20_000 },
    )
    .toBe(total);
  const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute('href')));
  expect(new Set(hrefs).size).toBe(hrefs.length);
});

test('export then import through the API gives the same roles and texts', async ({ page }) => {
  const id = await createConversation(page, '[[say:A round trip answer]]');
  const exported = await page.request.get(`/api/conversations/${id}/export?format=json`);
  expect(exported.ok()).toBeTruthy();
  const json = await exported.json();

  const imported = await page.request.post('/api/conversations/import', {
    data: json,
    headers: originHeaders(),
  });
  expect(imported.status()).toBe(201);
  const { id: copyId } = (await imported.json()) as { id: string };
  expect(copyId).not.toBe(id);

  const original = (await (await page.request.get(`/api/conversations/${id}`)).json()) as Stored;
  const copy = (await (await page.request.get(`/api/conversations/${copyId}`)).json()) as Stored;
  expect(roleAndText(original)).toEqual([
    ['user', '[[say:A round trip answer]]'],
    ['assistant', 'A round trip answer'],
  ]);
  expect(roleAndText(copy)).toEqual(roleAndText(original));
  expect(copy.title).toBe(original.title);
});

test('"Import conversation" opens the imported conversation; bad files show an error', async ({ page }) => {
  const data = {
    version: 1,
    title: 'Imported from a file',
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'Hello from a file' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Hello back from a file' }] },
    ],
  };
  const input = 'input[type="file"][aria-label="Import conversation"]';

  await page.setInputFiles(input, {
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{ not json'),
  });
  await expect(nav(page).getByRole('alert')).toContainText('not valid JSON');

  await page.setInputFiles(input, {
    name: 'empty.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"messages":[]}'),
  });
  await expect(nav(page).getByRole('alert')).toBeVisible();
  await expect(nav(page).getByRole('alert')).not.toContainText('not valid JSON');
  await expect(page).toHaveURL(/\/$/);

  // The visible button opens the file picker.
  const chooser = page.waitForEvent('filechooser');
  await nav(page).getByRole('button', { name: 'Import conversation' }).click();
  await (await chooser).setFiles({
    name: 'chat.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(data)),
  });
  await expect(page).toHaveURL(/\/c\//);
  await expect(assistantMessages(page).last()).toContainText('Hello back from a file');
  await expect(page.locator('[data-role="user"]')).toContainText(['Hello from a file']);
  await expect(nav(page).getByRole('link', { name: 'Imported from a file' })).toBeVisible();
  await expect(nav(page).getByRole('alert')).toHaveCount(0);
});

test('keyboard shortcuts: Ctrl+K searches, "?" shows help, Ctrl+Shift+O starts a new chat', async ({
  page,
}) => {
  await expect(composer(page)).toBeFocused();
  // The composer is focused from the server's HTML; the shortcut works once the page has hydrated.
  await expect(async () => {
    await page.keyboard.press('Control+K');
    await expect(searchBox(page)).toBeFocused({ timeout: 1_000 });
  }).toPass();

  // "?" typed into a text field stays a character.
  await composer(page).click();
  await page.keyboard.type('why?');
  await expect(composer(page)).toHaveValue('why?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toHaveCount(0);

  await composer(page).fill('');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Shift+?');
  await expect(help).toBeVisible();
  for (const action of ['New chat', 'Search', 'Send', 'New line', 'Stop', 'Help'])
    await expect(help).toContainText(action);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  await nav(page).getByRole('button', { name: 'Shortcuts' }).click();
  await expect(help).toBeVisible();
  await help.getByRole('button', { name: 'Close' }).click();
  await expect(help).toHaveCount(0);

  await send(page, 'Shortcut check');
  await expect(assistantMessages(page).last()).toContainText('You said');
  await expect(page).toHaveURL(/\/c\//);
  await page.keyboard.press('Control+Shift+O');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('How can I help?')).toBeVisible();
});

test('the Markdown export imports back through "Import conversation"; a Markdown file that is no export is refused', async ({
  page,
}) => {
  const id = await createConversation(page, '[[say:An answer worth **keeping**]]');
  const exported = await page.request.get(`/api/conversations/${id}/export?format=md`);
  expect(exported.ok()).toBeTruthy();
  const markdown = await exported.text();
  expect(markdown).toContain('## Assistant');
  const input = 'input[type="file"][aria-label="Import conversation"]';

  await page.setInputFiles(input, {
    name: 'notes.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# My notes\n\nNot a conversation.\n'),
  });
  await expect(nav(page).getByRole('alert')).toContainText('not a conversation export');

  await page.setInputFiles(input, {
    name: 'chat.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from(markdown),
  });
  await expect(page).not.toHaveURL(new RegExp(`/c/${id}$`));
  await expect(page).toHaveURL(/\/c\//);
  await expect(assistantMessages(page).last().locator('strong')).toHaveText('keeping');
  const copy = (await (
    await page.request.get(`/api/conversations/${conversationIdFromUrl(page)}`)
  ).json()) as Stored;
  const original = (await (await page.request.get(`/api/conversations/${id}`)).json()) as Stored;
  expect(roleAndText(copy)).toEqual(roleAndText(original));
  expect(copy.title).toBe(original.title);
});
