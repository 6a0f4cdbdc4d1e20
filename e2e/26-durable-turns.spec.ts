import { expect, type Page, test } from '@playwright/test';
import {
  ADMIN,
  assistantMessages,
  conversationIdFromUrl,
  ensureUser,
  originHeaders,
  send,
  signIn,
  specUser,
  streamChunks,
} from './helpers';

const BOB = specUser('s26', 'Bob User');

const h = originHeaders();
const answerText = (page: Page) => assistantMessages(page).last().locator('.prose-chat');
const wordCount = async (page: Page) =>
  ((await answerText(page).textContent()) ?? '').split(/\s+/).filter(Boolean).length;
const storedAnswer = async (page: Page, id: string) => {
  const res = await page.request.get(`/api/conversations/${id}`);
  const body = (await res.json()) as {
    running: boolean;
    messages: Array<{
      role: string;
      parts: Array<{ type: string; text?: string }>;
      metadata?: { interrupted?: boolean };
    }>;
  };
  return { running: body.running, last: body.messages.at(-1) };
};

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/');
});

test('a reload mid-answer shows the answer growing on, and it ends complete, not interrupted', async ({
  page,
}) => {
  await send(page, 'Long answer [[words:300]] [[slow:20]]');
  await expect.poll(() => wordCount(page)).toBeGreaterThan(20);
  const id = conversationIdFromUrl(page);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  const afterReload = await wordCount(page);
  await expect.poll(() => wordCount(page)).toBeGreaterThan(afterReload);
  await expect(answerText(page)).toContainText('word300', { timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(assistantMessages(page).last().locator('[data-interrupted]')).toHaveCount(0);
  await expect.poll(async () => (await storedAnswer(page, id)).running).toBe(false);
  const { last } = await storedAnswer(page, id);
  expect(last?.metadata?.interrupted).toBeUndefined();
  expect(last?.parts.map((p) => p.text ?? '').join('')).toContain('word300');
});

test('a second tab joins a running answer live, and Stop there stops it everywhere', async ({
  page,
  context,
}) => {
  await send(page, 'Shared answer [[words:400]] [[slow:20]]');
  await expect.poll(() => wordCount(page)).toBeGreaterThan(10);
  const id = conversationIdFromUrl(page);
  const other = await context.newPage();
  await other.goto(`/c/${id}`);
  await expect.poll(() => wordCount(other)).toBeGreaterThan(0);
  const seen = await wordCount(other);
  await expect.poll(() => wordCount(other)).toBeGreaterThan(seen);
  expect((await storedAnswer(page, id)).running).toBe(true);

  await other.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect.poll(async () => (await storedAnswer(page, id)).last?.metadata?.interrupted).toBe(true);
  const stored = (await storedAnswer(page, id)).last?.parts.map((p) => p.text ?? '').join('') ?? '';
  expect(stored).toContain('word1');
  expect(stored).not.toContain('word400');
  await page.reload();
  await expect(assistantMessages(page).last().locator('[data-interrupted]')).toBeVisible();
  await other.close();
});

test('a pending approval is answered after a reload; a new message instead skips it', async ({ page }) => {
  await send(page, 'Clean up [[tool:delete_all]]');
  const card = () => assistantMessages(page).last().locator('[data-tool-call][data-tool-name="delete_all"]');
  await expect(card()).toHaveAttribute('data-state', 'awaiting-approval');
  await page.reload();
  await expect(card()).toHaveAttribute('data-state', 'awaiting-approval');
  await card().getByRole('button', { name: 'Approve' }).click();
  await expect(card()).toHaveAttribute('data-state', 'done');
  await expect(assistantMessages(page).last()).toContainText('deleted everything');
  await page.reload();
  await expect(card()).toHaveAttribute('data-state', 'done');

  // Another approval, left unanswered: a new message resolves it as skipped, never stuck "awaiting".
  await send(page, 'Again [[tool:delete_all]]');
  const second = assistantMessages(page).last().locator('[data-tool-call][data-tool-name="delete_all"]');
  await expect(second).toHaveAttribute('data-state', 'awaiting-approval');
  await send(page, 'Never mind');
  await expect(assistantMessages(page).last()).toContainText('You said: Never mind');
  await page.reload();
  const skipped = assistantMessages(page).nth(-2).locator('[data-tool-call][data-tool-name="delete_all"]');
  await expect(skipped).toHaveAttribute('data-state', 'denied');
});

test('a failed answer keeps its error and Retry across a reload, and Retry works', async ({ page }) => {
  await send(page, 'Flaky after reload [[status:500]] [[once]]');
  await expect(page.locator('[data-chat-error]')).toContainText('HTTP 500');
  await page.reload();
  const alert = page.locator('[data-chat-error]');
  await expect(alert).toContainText('HTTP 500');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(assistantMessages(page).last()).toContainText('You said: Flaky after reload');
  await expect(page.locator('[data-chat-error]')).toHaveCount(0);
});

test('the stream route replays a running turn from its start, answers 204 when idle and 404 to others; a second turn is 409', async ({
  page,
  browser,
}) => {
  const id = `durable-${Date.now()}`;
  const message = (mid: string, text: string) => ({ id: mid, role: 'user', parts: [{ type: 'text', text }] });
  const started = page.request.post('/api/chat', {
    data: { id, message: message(`${id}-1`, 'Replay me [[words:60]] [[slow:30]]') },
    headers: h,
    timeout: 30_000,
  });
  await expect.poll(async () => (await page.request.get(`/api/conversations/${id}`)).status()).toBe(200);
  const second = await page.request.post('/api/chat', {
    data: { id, message: message(`${id}-2`, 'Me too') },
    headers: h,
  });
  expect(second.status()).toBe(409);

  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  const bob = await browser.newContext();
  await signIn(bob, BOB);
  expect((await bob.request.get(`/api/chat/${id}/stream`)).status()).toBe(404);
  expect((await bob.request.post(`/api/chat/${id}/stop`, { headers: h })).status()).toBe(404);

  const replay = await page.request.get(`/api/chat/${id}/stream`, { timeout: 30_000 });
  expect(replay.status()).toBe(200);
  expect(replay.headers()['content-type']).toContain('text/event-stream');
  const chunks = streamChunks(await replay.text());
  expect(chunks[0]?.type).toBe('start');
  const text = chunks
    .filter((c) => c.type === 'text-delta')
    .map((c) => c.delta)
    .join('');
  expect(text.trim().startsWith('word1 ')).toBe(true);
  expect(text).toContain('word60');
  expect(chunks.at(-1)?.type).toBe('finish');
  const original = streamChunks(await (await started).text());
  expect(
    original
      .filter((c) => c.type === 'text-delta')
      .map((c) => c.delta)
      .join(''),
  ).toBe(text);
  expect(await (await page.request.post(`/api/chat/${id}/stop`, { headers: h })).json()).toMatchObject({
    stopped: false,
  });
  // A conversation where no turn runs (an imported one never ran one): 204, the AI SDK's "nothing to resume".
  const imported = await page.request.post('/api/conversations/import', {
    data: { title: 'Idle', messages: [{ id: 'i1', role: 'user', parts: [{ type: 'text', text: 'hello' }] }] },
    headers: h,
  });
  expect(imported.status()).toBe(201);
  const idle = ((await imported.json()) as { id: string }).id;
  expect((await page.request.get(`/api/chat/${idle}/stream`)).status()).toBe(204);
  expect((await (await page.request.get(`/api/conversations/${idle}`)).json()).running).toBe(false);
  await Promise.all([admin.close(), bob.close()]);
});
