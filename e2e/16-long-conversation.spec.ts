import { expect, type Page, test } from '@playwright/test';
import { ADMIN, assistantMessages, originHeaders, send, signIn } from './helpers';
import { searchBox, searchResults } from './history-helpers';

/** A conversation of `pairs` question/answer pairs, through the import API (the answers are a few lines of Markdown). */
async function importLong(
  page: Page,
  pairs: number,
  title: string,
  rare?: { at: number; word: string },
): Promise<string> {
  const messages = Array.from({ length: pairs }, (_, i) => [
    {
      role: 'user',
      parts: [
        { type: 'text', text: `Question number ${i}${rare?.at === i ? ` about the ${rare.word}` : ''}` },
      ],
    },
    {
      role: 'assistant',
      parts: [
        {
          type: 'text',
          text: `Answer number ${i}\n\n- first point of ${i}\n- second point of ${i}\n\n**bold ${i}**${i === pairs - 1 ? '\n\n```ts\nconst answer = 42;\n```' : ''}`,
        },
      ],
    },
  ]).flat();
  const res = await page.request.post('/api/conversations/import', {
    data: { title, messages },
    headers: originHeaders(),
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const mounted = (page: Page) => page.locator('[data-message-list] [data-message-id]');
const scroller = (page: Page) =>
  page.locator('[data-message-list]').locator('xpath=ancestor::div[contains(@class,"overflow-y-auto")][1]');

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
});

test('a 400-message conversation opens at its end with only a window mounted; scrolling up reaches the first message', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const id = await importLong(page, 200, 'A very long talk');
  await page.goto(`/c/${id}`);

  // Opens scrolled to the latest message, which is in view; the earliest is not in the page at all.
  const lastAnswer = page.locator('[data-role="assistant"]', { hasText: 'Answer number 199' });
  await expect(lastAnswer).toBeInViewport();
  await expect(lastAnswer.locator('strong')).toHaveText('bold 199'); // rendered as Markdown
  await expect(lastAnswer.locator('pre code.hljs .hljs-keyword')).toHaveText('const'); // highlighted
  await expect(page.getByText('Question number 0', { exact: true })).toHaveCount(0);
  const count = await mounted(page).count();
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThan(40); // a window, not even the 50 messages the page was sent

  // Scrolling up loads the older pages and, at the very top, shows the first message.
  const box = scroller(page);
  const first = page.getByText('Question number 0', { exact: true });
  await expect(async () => {
    await box.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(first).toBeInViewport({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.locator('[data-older-messages]')).toHaveCount(0);
  // Still a window after all 400 are loaded: the last answer is no longer mounted.
  expect(await mounted(page).count()).toBeLessThan(40);
  await expect(lastAnswer).toHaveCount(0);
});

test('a new answer in a long conversation streams at the bottom, in view', async ({ page }) => {
  test.setTimeout(90_000);
  const id = await importLong(page, 150, 'Long talk, then a new question');
  await page.goto(`/c/${id}`);
  await expect(page.locator('[data-role="assistant"]', { hasText: 'Answer number 149' })).toBeInViewport();

  await send(page, 'One more please [[words:60]] [[slow:30]]');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('word1 word2');
  await expect(answer).not.toContainText('word60');
  await expect(answer).toContainText('word60');
  await expect(answer.getByText('word60')).toBeInViewport();
  await expect(page.getByText('One more please', { exact: false }).last()).toBeAttached();
  expect(await mounted(page).count()).toBeLessThan(40);

  // A reload shows the stored turn at the end, still opening at the bottom.
  await page.reload();
  await expect(assistantMessages(page).last()).toContainText('word60');
  await expect(assistantMessages(page).last()).toBeInViewport();
});

test('a search hit on an early message of a long conversation opens there, highlighted', async ({ page }) => {
  test.setTimeout(90_000);
  const word = `okapi${Date.now().toString(36)}`;
  const id = await importLong(page, 200, 'Long talk with a rare word', { at: 2, word });
  await page.goto('/');
  await searchBox(page).fill(word);
  const hit = searchResults(page);
  await expect(hit).toHaveCount(1);
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/c/${id}#m-`));
  // The 5th of 400 messages is far before the newest 50 the server sends: older pages are fetched until it is there.
  const anchor = new URL(page.url()).hash.slice(1);
  const target = page.locator(`[id="${anchor}"]`);
  await expect(target).toBeInViewport({ timeout: 20_000 });
  await expect(target).toContainText(`Question number 2 about the ${word}`);
  await expect(page.locator('.search-hit')).toContainText(word);
  expect(await mounted(page).count()).toBeLessThan(40);
});
