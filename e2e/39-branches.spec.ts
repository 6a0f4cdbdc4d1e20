import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import {
  ADMIN,
  assistantMessages,
  conversationIdFromUrl,
  ensureUser,
  originHeaders,
  send,
  signIn,
  specUser,
  userTexts,
} from './helpers';

// Branches (SPEC §7.4): Edit message and Regenerate keep the old version; a message with versions
// shows Previous version / Next version and a `k / n` counter; the selected path survives a reload and
// the JSON export keeps every branch.

const BREE = specUser('s39', 'Bree User');

let admin: BrowserContext;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BREE);
});

test.afterAll(async () => {
  await admin.close();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, BREE);
  await page.goto('/');
});

type Exported = {
  version: number;
  selectedId: string;
  messages: Array<{
    id: string;
    parentId: string | null;
    role: string;
    parts: Array<{ type: string; text?: string }>;
  }>;
};
type Stored = { messages: Array<{ role: string; parts: Array<{ type: string; text?: string }> }> };

const textOf = (m: { parts: Array<{ type: string; text?: string }> }) =>
  m.parts
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('');
const counter = (message: Locator) => message.locator('[data-version-counter]');
const firstUser = (page: Page) => page.locator('[data-role="user"]').first();

async function editFirstMessage(page: Page, text: string) {
  await firstUser(page).hover();
  await firstUser(page).getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'Edit message' }).fill(text);
  await page.getByRole('button', { name: 'Save and send' }).click();
}

test('editing a message keeps the old version and its answers; Previous / Next switch; reload keeps the choice', async ({
  page,
}) => {
  await send(page, 'First question');
  await expect(assistantMessages(page).last()).toContainText('You said: First question');
  await send(page, 'Second question');
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(assistantMessages(page).last()).toContainText('You said: Second question');
  // One version only: no counter yet.
  await expect(page.locator('[data-version-counter]')).toHaveCount(0);

  // Edit the first message mid-conversation: a new version beside it.
  await editFirstMessage(page, 'Edited question');
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(assistantMessages(page).last()).toContainText('You said: Edited question');
  await expect(userTexts(page)).toHaveText(['Edited question']);
  await expect(counter(firstUser(page))).toHaveText('2 / 2');
  await expect(firstUser(page).getByRole('button', { name: 'Next version' })).toBeDisabled();

  // Previous version: the old text, its answer and everything after it are all still there.
  await firstUser(page).getByRole('button', { name: 'Previous version' }).click();
  await expect(userTexts(page)).toHaveText(['First question', 'Second question']);
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(assistantMessages(page).first()).toContainText('You said: First question');
  await expect(assistantMessages(page).last()).toContainText('You said: Second question');
  await expect(counter(firstUser(page))).toHaveText('1 / 2');
  await expect(firstUser(page).getByRole('button', { name: 'Previous version' })).toBeDisabled();

  // Next version returns.
  await firstUser(page).getByRole('button', { name: 'Next version' }).click();
  await expect(userTexts(page)).toHaveText(['Edited question']);
  await expect(assistantMessages(page).last()).toContainText('You said: Edited question');
  await expect(counter(firstUser(page))).toHaveText('2 / 2');

  // The selected version is stored: a reload (and the API) shows the same path.
  await firstUser(page).getByRole('button', { name: 'Previous version' }).click();
  await expect(counter(firstUser(page))).toHaveText('1 / 2');
  await page.reload();
  await expect(userTexts(page)).toHaveText(['First question', 'Second question']);
  await expect(counter(firstUser(page))).toHaveText('1 / 2');
  const id = conversationIdFromUrl(page);
  const stored = (await (await page.request.get(`/api/conversations/${id}`)).json()) as Stored;
  expect(stored.messages.map(textOf)).toEqual([
    'First question',
    'You said: First question',
    'Second question',
    'You said: Second question',
  ]);

  // A new message follows the selected path.
  await send(page, 'Third question');
  await expect(assistantMessages(page)).toHaveCount(3);
  await expect(assistantMessages(page).last()).toContainText('You said: Third question');
  await page.reload();
  await expect(userTexts(page)).toHaveText(['First question', 'Second question', 'Third question']);
  await expect(counter(firstUser(page))).toHaveText('1 / 2');

  // While an answer is being written, versions cannot be switched.
  await send(page, '[[slow:150]][[words:40]]');
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
  await expect(firstUser(page).getByRole('button', { name: 'Next version' })).toBeDisabled();
  await expect(assistantMessages(page).last()).toContainText('word40');
  await expect(firstUser(page).getByRole('button', { name: 'Next version' })).toBeEnabled();
});

test('regenerating an answer adds a version beside it', async ({ page }) => {
  await send(page, 'Tell me a fact');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('You said: Tell me a fact');
  const firstId = await answer.getAttribute('data-message-id');

  await answer.hover();
  await answer.getByRole('button', { name: 'Regenerate' }).click();
  await expect(counter(assistantMessages(page).last())).toHaveText('2 / 2');
  await expect(assistantMessages(page)).toHaveCount(1);
  const secondId = await assistantMessages(page).last().getAttribute('data-message-id');
  expect(secondId).not.toBe(firstId);

  await assistantMessages(page).last().getByRole('button', { name: 'Previous version' }).click();
  await expect(assistantMessages(page).last()).toHaveAttribute('data-message-id', firstId ?? '');
  await expect(counter(assistantMessages(page).last())).toHaveText('1 / 2');
  await page.reload();
  await expect(assistantMessages(page).last()).toHaveAttribute('data-message-id', firstId ?? '');
  await expect(counter(assistantMessages(page).last())).toHaveText('1 / 2');
  await assistantMessages(page).last().getByRole('button', { name: 'Next version' }).click();
  await expect(assistantMessages(page).last()).toHaveAttribute('data-message-id', secondId ?? '');
  await expect(counter(assistantMessages(page).last())).toHaveText('2 / 2');
  // An edit shows its counter at once, while its answer is still being written.
  await editFirstMessage(page, 'Slow edit [[words:30]] [[slow:150]]');
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
  await expect(counter(firstUser(page))).toHaveText('2 / 2');
  await expect(assistantMessages(page).last()).toContainText('word30');
  await expect(counter(firstUser(page))).toHaveText('2 / 2');
  await page.reload();
  await expect(counter(firstUser(page))).toHaveText('2 / 2');
  await expect(userTexts(page)).toHaveText(['Slow edit [[words:30]] [[slow:150]]']);
});

test('a double click on Regenerate, or on Retry, starts one new answer, not two', async ({ page }) => {
  // The second click came before the first one's request showed: it started the answer again, leaving
  // an empty interrupted answer on the page and an interrupted version behind.
  await send(page, 'Twice [[words:30]] [[slow:20]]');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('word30');
  await answer.hover();
  await answer.getByRole('button', { name: 'Regenerate' }).dblclick();
  await expect(assistantMessages(page).last()).toContainText('word30');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(page.locator('[data-interrupted]')).toHaveCount(0);
  await expect(counter(assistantMessages(page).last())).toHaveText('2 / 2');

  await send(page, 'Fails once [[status:500]] [[once]] [[words:30]] [[slow:20]]');
  const alert = page.locator('[data-chat-error]');
  await expect(alert).toContainText('HTTP 500');
  await alert.getByRole('button', { name: 'Retry' }).dblclick();
  await expect(assistantMessages(page).last()).toContainText('word30');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(page.locator('[data-interrupted]')).toHaveCount(0);
  await page.reload();
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(page.locator('[data-interrupted]')).toHaveCount(0);
  await expect(counter(assistantMessages(page).first())).toHaveText('2 / 2');
});

test('the JSON export keeps both branches and imports back; Markdown follows the selected path', async ({
  page,
}) => {
  await send(page, 'Original wording');
  await expect(assistantMessages(page).last()).toContainText('You said: Original wording');
  await editFirstMessage(page, 'Better wording');
  await expect(assistantMessages(page).last()).toContainText('You said: Better wording');
  await expect(counter(firstUser(page))).toHaveText('2 / 2');
  const id = conversationIdFromUrl(page);

  const md = await (await page.request.get(`/api/conversations/${id}/export?format=md`)).text();
  expect(md).toContain('Better wording');
  expect(md).toContain('You said: Better wording');
  expect(md).not.toContain('You said: Original wording');

  const exported = (await (
    await page.request.get(`/api/conversations/${id}/export?format=json`)
  ).json()) as Exported;
  expect(exported.messages.map(textOf)).toEqual([
    'Original wording',
    'You said: Original wording',
    'Better wording',
    'You said: Better wording',
  ]);
  const [q1, a1, q2, a2] = exported.messages;
  expect([q1?.parentId, a1?.parentId, q2?.parentId, a2?.parentId]).toEqual([null, q1?.id, null, q2?.id]);
  expect(exported.selectedId).toBe(a2?.id);

  // Selecting a version: the owner only (another user learns nothing: 404), same origin only, known ids only.
  const select = (
    context: { put: typeof page.request.put },
    messageId: string,
    headers: Record<string, string> = originHeaders(),
  ) => context.put(`/api/conversations/${id}/branch`, { data: { messageId }, headers });
  expect((await select(admin.request, q1?.id ?? '')).status()).toBe(404);
  expect((await select(page.request, q1?.id ?? '', {})).status()).toBe(403);
  expect((await select(page.request, 'no-such-message')).status()).toBe(404);
  const selected = await select(page.request, q1?.id ?? '');
  expect(selected.status()).toBe(200);
  const branch = (await selected.json()) as {
    messages: Exported['messages'];
    siblings: Record<string, string[]>;
  };
  expect(branch.messages.map(textOf)).toEqual(['Original wording', 'You said: Original wording']);
  expect(branch.siblings[q1?.id ?? '']).toEqual([q1?.id, q2?.id]);
  expect((await select(page.request, q2?.id ?? '')).status()).toBe(200);

  const imported = await page.request.post('/api/conversations/import', {
    data: exported,
    headers: originHeaders(),
  });
  expect(imported.status()).toBe(201);
  const { id: copyId } = (await imported.json()) as { id: string };
  const copy = (await (await page.request.get(`/api/conversations/${copyId}`)).json()) as Stored;
  expect(copy.messages.map(textOf)).toEqual(['Better wording', 'You said: Better wording']);

  await page.goto(`/c/${copyId}`);
  await expect(userTexts(page)).toHaveText(['Better wording']);
  await expect(counter(firstUser(page))).toHaveText('2 / 2');
  await firstUser(page).getByRole('button', { name: 'Previous version' }).click();
  await expect(userTexts(page)).toHaveText(['Original wording']);
  await expect(assistantMessages(page).last()).toContainText('You said: Original wording');
});
