// History (the sidebar's search and paging; export, import and shortcuts are in
// e2e/51-history-import-export.spec.ts): full-text search with highlights that opens a conversation at the
// message, and cursor paging that shows every conversation once, in the API and the sidebar's infinite scroll.
import { expect, test } from '@playwright/test';
import { assistantMessages, conversationIdFromUrl, originHeaders, send } from './helpers';
import {
  createConversation,
  listAll,
  listPage,
  nav,
  openAsAdmin,
  searchBox,
  searchResults,
} from './history-helpers';

test.beforeEach(openAsAdmin);

test('search finds a word of an answer, highlights it, and opens the conversation at the message', async ({
  page,
}) => {
  await send(page, '[[say:the zebra-quokka-77 lives here]]');
  await expect(assistantMessages(page).last()).toHaveText(/the zebra-quokka-77 lives here/);
  const id = conversationIdFromUrl(page);
  await expect(nav(page).getByRole('heading', { name: 'Today' })).toBeVisible();

  await page.goto('/');
  // Typed right after the load, perhaps before hydration (e2e 36 holds the scripts to make sure of it).
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
  await searchBox(page).fill('numbat');
  await expect(searchResults(page)).toHaveCount(1);
  await expect(searchResults(page).first().locator('mark')).toHaveText(['numbat']);
  await searchResults(page).first().click();
  await expect(page).toHaveURL(new RegExp(`/c/${id}#m-`));
  const anchor = new URL(page.url()).hash.slice(1);
  await expect(page.locator(`[id="${anchor}"]`)).toHaveAttribute('data-role', 'assistant');
});

test('a Chinese word inside a sentence is found and highlighted alone; the snippet stays text', async ({
  page,
}) => {
  // Chinese has no spaces: the word is in the middle of a run of characters, and in no title.
  const data = {
    title: '水果',
    messages: [
      { role: 'user', parts: [{ type: 'text', text: '你最喜欢什么水果？' }] },
      {
        role: 'assistant',
        parts: [{ type: 'text', text: '我最喜欢吃榴莲和山竹。<img src=x onerror=alert(1)>' }],
      },
    ],
  };
  const res = await page.request.post('/api/conversations/import', { data, headers: originHeaders() });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  await page.reload();
  await searchBox(page).fill('山竹');
  await expect(searchResults(page)).toHaveCount(1);
  const hit = searchResults(page).first();
  await expect(hit.locator('mark')).toHaveText(['山竹']);
  await expect(hit).toContainText('<img src=x onerror=alert(1)>');
  await expect(hit.locator('img')).toHaveCount(0);
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/c/${id}#m-`));
  const anchor = new URL(page.url()).hash.slice(1);
  await expect(page.locator(`[id="${anchor}"]`)).toHaveAttribute('data-role', 'assistant');
  expect(dialogs).toBe(0);
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

test('renaming a conversation deleted in another tab says so and takes it out of the list', async ({
  page,
}) => {
  const id = await createConversation(page, 'Doomed by another tab');
  await page.goto(`/c/${id}`);
  await expect(nav(page).getByRole('heading', { name: 'Today' })).toBeVisible();
  // Another tab deletes it meanwhile.
  expect((await page.request.delete(`/api/conversations/${id}`, { headers: originHeaders() })).status()).toBe(
    204,
  );
  await nav(page).getByRole('button', { name: 'Rename Doomed by another tab' }).click();
  const input = page.getByRole('textbox', { name: 'Conversation title' });
  await input.fill('A new name for nothing');
  await input.press('Enter');
  await expect(nav(page).getByRole('status')).toHaveText(
    'This conversation was deleted elsewhere, so it could not be renamed.',
  );
  await expect(
    nav(page).getByRole('link', { name: /Doomed by another tab|A new name for nothing/ }),
  ).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
});
