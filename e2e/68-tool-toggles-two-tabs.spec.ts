// One conversation open in two tabs, each switching off a different tool in its Tools menu: both switches
// are stored (each tab sends its switch, not its whole list), each tab ends showing what is stored, and a
// reload shows both off.
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { assistantMessages, conversationIdFromUrl, ensureUsers, send, signIn, specUser } from './helpers';

const USER = specUser('s68', 'Toggles User');
let ctx: BrowserContext;

test.beforeAll(async ({ browser }) => {
  await ensureUsers(browser, USER);
  ctx = await browser.newContext();
  await signIn(ctx, USER);
});

test.afterAll(async () => ctx.close());

const settings = (page: Page) => page.getByRole('dialog', { name: 'Tool settings' });
const tool = (page: Page, name: string) =>
  settings(page).getByRole('checkbox', { name: `tests.${name}`, exact: true });

/** Opens the Tools menu (once the page has hydrated) with the tools of `tests` shown, as stored now. */
async function openTools(page: Page) {
  await expect(async () => {
    if (!(await settings(page).isVisible())) await page.getByRole('button', { name: /^Tools · / }).click();
    await expect(settings(page)).toBeVisible({ timeout: 1_000 });
  }).toPass();
  // It reads the stored settings when it opens (busy until they are in).
  await expect(settings(page)).not.toHaveAttribute('aria-busy', 'true');
  await settings(page).getByRole('button', { name: 'Show tools of tests' }).click();
  await expect(tool(page, 'add')).toBeVisible();
}

/** Switches a tool off and waits for the server's answer to that save. */
async function switchOff(page: Page, name: string) {
  const saved = page.waitForResponse(
    (r) => r.request().method() === 'PATCH' && r.url().includes('/api/conversations/'),
  );
  await tool(page, name).uncheck();
  expect((await saved).ok()).toBe(true);
}

test('two tabs switch off different tools: both are stored, both tabs show both, a reload too', async () => {
  const a = await ctx.newPage();
  await a.goto('/');
  await send(a, 's68 toggles');
  await expect(a).toHaveURL(/\/c\//);
  await expect(assistantMessages(a).last()).toContainText('You said: s68 toggles');
  const id = conversationIdFromUrl(a);
  const b = await ctx.newPage();
  await b.goto(a.url());

  // Both menus open on the same stored settings, before either tab switches anything.
  await openTools(a);
  await openTools(b);
  await expect(tool(a, 'add')).toBeChecked();
  await expect(tool(b, 'sleep')).toBeChecked();

  await switchOff(a, 'add');
  // Tab B has not seen that switch: its own save keeps it (stored), and its menu then shows it.
  await expect(tool(b, 'add')).toBeChecked();
  await switchOff(b, 'sleep');
  const stored = await ctx.request.get(`/api/conversations/${id}?messages=0`);
  const body = (await stored.json()) as { disabledTools: string[]; messages?: unknown };
  expect([...body.disabledTools].sort()).toEqual(['tests/add', 'tests/sleep']);
  expect(body).not.toHaveProperty('messages');
  await expect(tool(b, 'add')).not.toBeChecked();
  await expect(tool(b, 'sleep')).not.toBeChecked();

  // Tab A shows B's switch once its menu opens again.
  await a.keyboard.press('Escape');
  await expect(settings(a)).toBeHidden();
  await openTools(a);
  await expect(tool(a, 'sleep')).not.toBeChecked();
  await expect(tool(a, 'add')).not.toBeChecked();

  for (const page of [a, b]) {
    await page.reload();
    await openTools(page);
    await expect(tool(page, 'add')).not.toBeChecked();
    await expect(tool(page, 'sleep')).not.toBeChecked();
    await expect(tool(page, 'echo')).toBeChecked();
  }
  await Promise.all([a.close(), b.close()]);
});
