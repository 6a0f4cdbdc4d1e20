// U+0000 (NUL), which SQLite stores and a Postgres text column refuses, is handled the same on both databases
// (run this spec with E2E_DATABASE=postgres as well): a pasted NUL starts a chat (its title shows a space), the
// model's answer holding it is kept, and a rename holding it is refused with a 400 naming the field.
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
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

const NORA = specUser('s62', 'Nora Nul');
/** Makes this run's titles unique (a SQLite database outlives a run). */
const run = Date.now().toString(36);

let admin: BrowserContext;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, NORA);
});

test.afterAll(async () => {
  await admin.close();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, NORA);
});

const header = (page: Page) => page.locator('header h1');

type Stored = {
  title: string;
  messages: Array<{ role: string; parts: Array<{ type: string; text?: string }> }>;
};
async function stored(page: Page, id: string): Promise<Stored> {
  const res = await page.request.get(`/api/conversations/${id}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as Stored;
}

test('a first message with a pasted NUL starts its chat; the answer holding it survives a reload', async ({
  page,
}) => {
  const pasted = `pasted\u0000text about a wombat ${run}`;
  await page.goto('/');
  await send(page, pasted);
  // The fake model echoes the message: "You said: pasted<NUL>text about a wombat …".
  await expect(assistantMessages(page).last()).toContainText(`text about a wombat ${run}`);
  await expect(page).toHaveURL(/\/c\//);
  const id = conversationIdFromUrl(page);

  await page.reload();
  await expect(userTexts(page)).toHaveCount(1);
  await expect(userTexts(page).first()).toContainText(`text about a wombat ${run}`);
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(assistantMessages(page).first()).toContainText('You said: pasted');
  await expect(assistantMessages(page).first()).toContainText(`text about a wombat ${run}`);
  await expect(header(page)).toHaveText(`pasted text about a wombat ${run}`);
  // Both are stored as written, the NUL included; the title has a space in its place.
  const chat = await stored(page, id);
  expect(chat.title).toBe(`pasted text about a wombat ${run}`);
  expect(chat.messages.map((m) => [m.role, m.parts.find((p) => p.type === 'text')?.text])).toEqual([
    ['user', pasted],
    ['assistant', `You said: ${pasted}`],
  ]);
});

test('a rename holding NUL is refused with a 400 naming the field; the title stays', async ({ page }) => {
  await page.goto('/');
  await send(page, `Rename me ${run}`);
  await expect(assistantMessages(page).last()).toContainText(`Rename me ${run}`);
  const id = conversationIdFromUrl(page);
  const res = await page.request.patch(`/api/conversations/${id}`, {
    data: { title: 'Bad\u0000name' },
    headers: originHeaders(),
  });
  expect(res.status()).toBe(400);
  expect(await res.json()).toEqual({
    error: {
      code: 'bad_request',
      message: 'Invalid request body: title: must not contain the NUL character (U+0000)',
      fields: { title: 'must not contain the NUL character (U+0000)' },
    },
  });
  expect((await stored(page, id)).title).toBe(`Rename me ${run}`);
});

test('an API address holding NUL is refused with a 400 naming the problem, not a database error', async ({
  page,
}) => {
  for (const path of ['/api/conversations/a%00b', '/api/conversations?q=wom%00bat']) {
    const res = await page.request.get(path);
    expect([path, res.status(), (await res.json()).error.message]).toEqual([
      path,
      400,
      'The address must not contain the NUL character (U+0000).',
    ]);
  }
});
