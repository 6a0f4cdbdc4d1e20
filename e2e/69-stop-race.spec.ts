import { expect, type Page, test } from '@playwright/test';
import { ADMIN, assistantMessages, conversationIdFromUrl, send, signIn } from './helpers';

// Stop pressed as the answer ends: the tab that pressed it, and another tab following the answer, end up
// showing the answer exactly as the server stored it, in either order of the two events. The Stop request
// is held in the browser (page.route) while the server writes on, so each order happens every time.

const words = (text: string | null | undefined) => (text ?? '').split(/\s+/).filter(Boolean);
const shownWords = async (page: Page) =>
  words(await assistantMessages(page).last().locator('.prose-chat').textContent());
const storedAnswer = async (page: Page, id: string) => {
  const body = (await (await page.request.get(`/api/conversations/${id}`)).json()) as {
    running: boolean;
    messages: Array<{ role: string; parts: Array<{ text?: string }>; metadata?: { interrupted?: boolean } }>;
  };
  const last = body.messages.at(-1);
  return {
    running: body.running,
    role: last?.role,
    interrupted: last?.metadata?.interrupted ?? false,
    words: words(last?.parts.map((p) => p.text ?? '').join('')),
  };
};

/** Holds this tab's next Stop request (POST /api/chat/[id]/stop) until the returned function is called. */
async function holdStop(page: Page, id: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/chat/${id}/stop`, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Sends a slow answer, waits until it shows, and opens a second tab that follows it. */
async function answerInTwoTabs(page: Page, text: string) {
  await send(page, text);
  await expect(assistantMessages(page).last()).toContainText('word5');
  const id = conversationIdFromUrl(page);
  const other = await page.context().newPage();
  await other.goto(`/c/${id}`);
  await expect(assistantMessages(other).last()).toContainText('word5');
  return { id, other };
}

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/');
});

test('a Stop that reaches the server after the answer ended leaves it complete, not stopped, in every tab', async ({
  page,
}) => {
  const { id, other } = await answerInTwoTabs(page, 'Race the end [[words:150]] [[slow:20]]');
  const release = await holdStop(page, id);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  // This tab stops following at once; the server, not told yet, writes the answer to its end and stores it.
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
  await expect
    .poll(() => storedAnswer(page, id), { timeout: 20_000 })
    .toMatchObject({ running: false, role: 'assistant', interrupted: false });
  expect((await storedAnswer(page, id)).words.at(-1)).toBe('word150');
  release();

  // Once the server answers that Stop, the tab shows the stored answer: whole, without the stopped mark.
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('word150');
  await expect(answer.locator('[data-interrupted]')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Answer stopped' })).toHaveCount(0);
  await expect(assistantMessages(other).last()).toContainText('word150');
  await expect(assistantMessages(other).last().locator('[data-interrupted]')).toHaveCount(0);
  await page.reload();
  await expect(assistantMessages(page).last()).toContainText('word150');
  await expect(assistantMessages(page).last().locator('[data-interrupted]')).toHaveCount(0);
  await other.close();
});

test('a Stop that cuts the answer shows it interrupted, with exactly the stored text, in every tab', async ({
  page,
}) => {
  const { id, other } = await answerInTwoTabs(page, 'Cut me short [[words:2000]] [[slow:20]]');
  const release = await holdStop(page, id);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
  // The server writes on until the Stop reaches it: the other tab sees more than this one kept.
  const kept = (await shownWords(page)).length;
  await expect.poll(async () => (await shownWords(other)).length).toBeGreaterThan(kept + 10);
  release();

  await expect.poll(async () => (await storedAnswer(page, id)).interrupted).toBe(true);
  const stored = await storedAnswer(page, id);
  expect(stored.running).toBe(false);
  expect(stored.words.at(-1)).not.toBe('word2000');
  for (const tab of [page, other]) {
    await expect(assistantMessages(tab).last().locator('[data-interrupted]')).toBeVisible();
    await expect.poll(() => shownWords(tab)).toEqual(stored.words);
  }
  await page.reload();
  await expect(assistantMessages(page).last().locator('[data-interrupted]')).toBeVisible();
  await expect.poll(() => shownWords(page)).toEqual(stored.words);
  await other.close();
});

test('a Stop before any text arrived shows the stopped answer at once, as a reload does', async ({
  page,
}) => {
  await send(page, 'Think first [[delay:8000]] [[words:5]]');
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
  await page.waitForURL(/\/c\//);
  const id = conversationIdFromUrl(page);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();

  // The stored answer (empty, interrupted) shows under the question, with Regenerate, without a reload.
  const stored = await storedAnswer(page, id);
  expect(stored).toMatchObject({ running: false, role: 'assistant', interrupted: true, words: [] });
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(assistantMessages(page).last().locator('[data-interrupted]')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Answer stopped' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Regenerate', exact: true }).click();
  await expect(assistantMessages(page).last()).toContainText('word5', { timeout: 15_000 });
  await page.reload();
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(assistantMessages(page).last()).toContainText('word5');
});
