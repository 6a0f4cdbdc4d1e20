// Model output the Markdown renderer cannot draw (nested thousands deep: a few KB overflow the stack of
// the Markdown-to-HTML step) shows as plain text in its own message; the rest of the chat, a
// reload of it and its share page keep working. Untrusted text never takes the page down with it.
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import {
  ADMIN,
  assistantMessages,
  composer,
  conversationIdFromUrl,
  ensureUser,
  originHeaders,
  send,
  signIn,
  specUser,
} from './helpers';

const MAYA = specUser('s71', 'Maya Markdown');
const run = Date.now().toString(36);

let admin: BrowserContext;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, MAYA);
});

test.afterAll(async () => {
  await admin.close();
});

/** The text Next shows when the page's React tree failed. */
const crashed = (page: Page) => page.getByText(/Application error|This page couldn’t load/i);

/** Errors the page reports (a server render that failed is one: React's #419 on the client). */
function pageErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

test('an answer the renderer fails on shows as plain text in its message; the chat, its reload and its share page still work', async ({
  page,
  browser,
}) => {
  await signIn(page, MAYA);
  await page.goto('/');
  // Quotes nested 10,000 deep (10 KB): the Markdown-to-HTML step recurses once per level and overflows.
  await send(page, `[[say:Before the quotes.\n\n${'>'.repeat(10_000)} quoted-${run}]]`);
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText(`quoted-${run}`);
  await expect(answer).toContainText('Before the quotes.');
  await expect(crashed(page)).toHaveCount(0);
  await expect(composer(page)).toBeVisible();

  // The next message is answered and drawn as Markdown again.
  await send(page, `[[say:**bold-${run}**]]`);
  await expect(assistantMessages(page).last().locator('strong')).toHaveText(`bold-${run}`);

  // Server-rendered, the page comes back with both answers.
  await page.reload();
  await expect(assistantMessages(page).first()).toContainText(`quoted-${run}`);
  await expect(assistantMessages(page).last().locator('strong')).toHaveText(`bold-${run}`);
  await expect(crashed(page)).toHaveCount(0);

  // So does the share page.
  const id = conversationIdFromUrl(page);
  const shared = await page.request.post(`/api/conversations/${id}/share`, {
    headers: originHeaders(),
    data: {},
  });
  expect(shared.status(), await shared.text()).toBe(201);
  const { url } = (await shared.json()) as { url: string };
  const anon = await (await browser.newContext()).newPage();
  expect((await anon.goto(url))?.status()).toBe(200);
  await expect(anon.locator('[data-role="assistant"]').first()).toContainText(`quoted-${run}`);
  await expect(anon.locator('[data-role="assistant"]').last().locator('strong')).toHaveText(`bold-${run}`);
  await expect(crashed(anon)).toHaveCount(0);
  await anon.context().close();
});

test('an answer nested hundreds deep is shown as written without parsing it, in the chat and on the server', async ({
  page,
  browser,
}) => {
  const errors = pageErrors(page);
  await signIn(page, MAYA);
  await page.goto('/');
  // 5 KB of quotes, 6 KB of list items on one line, 10 KB of strong emphasis: the parser's time grows with the
  // square of such nesting, and its next step overflows the stack (on the server rendering the page too).
  const quotes = `${'>'.repeat(5000)} quoted-${run}`;
  const items = `${'- '.repeat(3000)}listed-${run}`;
  const stars = `${'**'.repeat(2500)}starred-${run}${'**'.repeat(2500)}`;
  await send(page, `[[say:Deep ones.\n\n${quotes}\n\n${items}\n\n${stars}]]`);
  const answer = assistantMessages(page).last();
  for (const word of ['quoted', 'listed', 'starred']) await expect(answer).toContainText(`${word}-${run}`);
  await expect(answer).toContainText('>>>>');
  await expect(answer.locator('blockquote, li, strong')).toHaveCount(0);

  await page.reload();
  await expect(assistantMessages(page).last()).toContainText(`starred-${run}`);
  await expect(crashed(page)).toHaveCount(0);

  const id = conversationIdFromUrl(page);
  const shared = await page.request.post(`/api/conversations/${id}/share`, {
    headers: originHeaders(),
    data: {},
  });
  const { url } = (await shared.json()) as { url: string };
  const anon = await (await browser.newContext()).newPage();
  const anonErrors = pageErrors(anon);
  expect((await anon.goto(url))?.status()).toBe(200);
  await expect(anon.locator('[data-role="assistant"]').last()).toContainText(`quoted-${run}`);
  await expect(crashed(anon)).toHaveCount(0);
  // Neither page's server render failed on it (React reports that on the client as error #419).
  expect(errors).toEqual([]);
  expect(anonErrors).toEqual([]);
  await anon.context().close();
});

test('a long answer is drawn as Markdown by the browser, not by the server render; a short one by both', async ({
  page,
  browser,
}) => {
  const errors = pageErrors(page);
  await signIn(page, MAYA);
  await page.goto('/');
  // Short lists between paragraphs: the parser's time grows faster than the text for this shape.
  const long = Array.from({ length: 500 }, (_, i) => `- item-${run}-${i}\n\npara ${i}`).join('\n\n');
  expect(long.length).toBeGreaterThan(8_000);
  await send(page, `[[say:${long}]]`);
  await expect(assistantMessages(page).last().locator('li')).toHaveCount(500);
  await send(page, `[[say:- short-${run}]]`);
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(assistantMessages(page).last().locator('li')).toHaveText(`short-${run}`);

  // The server's HTML: the short answer as Markdown, the long one as written.
  const html = await (await page.request.get(page.url())).text();
  expect(html).toContain(`<li>short-${run}</li>`);
  expect(html).toContain(`- item-${run}-0`);
  expect(html).not.toContain(`<li>item-${run}-0</li>`);
  // In the browser, once it has taken over, both are Markdown.
  await page.reload();
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(assistantMessages(page).first().locator('li')).toHaveCount(500);
  await expect(assistantMessages(page).last().locator('li')).toHaveText(`short-${run}`);

  // The share page alike.
  const id = conversationIdFromUrl(page);
  const shared = await page.request.post(`/api/conversations/${id}/share`, {
    headers: originHeaders(),
    data: {},
  });
  const { url } = (await shared.json()) as { url: string };
  const sharedHtml = await (await page.request.get(url)).text();
  expect(sharedHtml).toContain(`<li>short-${run}</li>`);
  expect(sharedHtml).not.toContain(`<li>item-${run}-0</li>`);
  const anon = await (await browser.newContext()).newPage();
  const anonErrors = pageErrors(anon);
  expect((await anon.goto(url))?.status()).toBe(200);
  await expect(anon.locator('[data-role="assistant"]').first().locator('li')).toHaveCount(500);
  // No mismatch between the server's HTML and the browser's first render.
  expect(errors).toEqual([]);
  expect(anonErrors).toEqual([]);
  await anon.context().close();
});
