import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { APP_URL, NO_PROVIDER_URL } from '../playwright.config';
import {
  ADMIN,
  assistantMessages,
  composer,
  ensureUser,
  originHeaders,
  send,
  signIn,
  specUser,
} from './helpers';
import { searchBox } from './history-helpers';

// The small things users notice: Escape stops, drafts are kept, the theme, the favicon, no chatty live
// region, and the no-provider notice by role.

const DORA = specUser('s36', 'Dora User');
const NOPE = specUser('s36', 'Nope User');

let admin: BrowserContext;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, DORA);
});

test.afterAll(async () => {
  await admin.close();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, DORA);
});

const stopButton = (page: Page) => page.getByRole('button', { name: 'Stop', exact: true });
const sendButton = (page: Page) => page.getByRole('button', { name: 'Send', exact: true });

test('Escape stops a streaming answer from the composer, but first closes an open dialog', async ({
  page,
}) => {
  await page.goto('/');
  await send(page, 'Stop me with Escape [[words:2000]] [[slow:25]]');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('word5');

  // With the shortcuts dialog open, Escape closes it and the answer goes on.
  await page.getByRole('button', { name: 'Shortcuts' }).click();
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toContainText('Stop (while streaming)');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(stopButton(page)).toBeVisible();

  await composer(page).focus();
  await page.keyboard.press('Escape');
  await expect(sendButton(page)).toBeVisible();
  await expect(answer.locator('[data-interrupted]')).toBeVisible();
  await expect(answer).not.toContainText('word2000');
  await expect(page.getByRole('status').filter({ hasText: 'Answer stopped' })).toHaveCount(1);
});

/** Types a draft and sees it kept. */
async function typeDraft(page: Page, text: string, key: string) {
  await composer(page).fill(text);
  await expect
    .poll(() => page.evaluate((k) => sessionStorage.getItem(`mcp-chat:draft:${k}`), key))
    .toBe(text);
}

test('the end of an answer leaves the focus where the user is: a rename or a search being typed goes on', async ({
  page,
}) => {
  await page.goto('/');
  const title = 'Focus stays [[words:400]] [[slow:15]]';
  await send(page, title);
  await expect(assistantMessages(page).last()).toContainText('word5');
  // Renaming while the answer is written: its end once moved the focus to the message box, which ended
  // the rename (saved half typed) and sent the rest of the typing to the message box.
  await page.getByRole('button', { name: `Rename ${title}` }).click();
  const input = page.getByRole('textbox', { name: 'Conversation title' });
  await input.fill('Renamed while');
  await expect(sendButton(page)).toBeVisible({ timeout: 20_000 });
  await expect(input).toBeFocused();
  await page.keyboard.type(' it answered');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('link', { name: 'Renamed while it answered' })).toBeVisible();
  await expect(composer(page)).toHaveValue('');

  // The same for the search box.
  await send(page, 'Again [[words:400]] [[slow:15]]');
  await expect(assistantMessages(page).last()).toContainText('word5');
  await searchBox(page).fill('Renamed');
  await expect(sendButton(page)).toBeVisible({ timeout: 20_000 });
  await expect(searchBox(page)).toBeFocused();
  await page.keyboard.type(' while');
  await expect(searchBox(page)).toHaveValue('Renamed while');
  await expect(composer(page)).toHaveValue('');

  // Stopped from the message box, the focus is back there.
  await composer(page).focus();
  await send(page, 'Once more [[words:400]] [[slow:15]]');
  await expect(assistantMessages(page).last()).toContainText('word5');
  await stopButton(page).click();
  await expect(sendButton(page)).toBeVisible();
  await expect(composer(page)).toBeFocused();
});

test('the unsent text of each conversation, and of a new chat, comes back; sending clears it', async ({
  page,
}) => {
  await page.goto('/');
  await send(page, 'Drafts conversation');
  await expect(assistantMessages(page).last()).toContainText('You said: Drafts conversation');
  await expect(page).toHaveURL(/\/c\//);
  const id = new URL(page.url()).pathname.split('/')[2] ?? '';
  await typeDraft(page, 'half-written reply', id);

  await page.getByRole('link', { name: 'New chat' }).click();
  await expect(page).toHaveURL(`${APP_URL}/`);
  await expect(composer(page)).toHaveValue('');
  await typeDraft(page, 'an idea for a new chat', 'new');

  await page.getByRole('link', { name: 'Drafts conversation' }).click();
  await expect(composer(page)).toHaveValue('half-written reply');
  await page.getByRole('link', { name: 'New chat' }).click();
  await expect(composer(page)).toHaveValue('an idea for a new chat');

  // Sent: the draft is gone.
  await page.getByRole('link', { name: 'Drafts conversation' }).click();
  await expect(composer(page)).toHaveValue('half-written reply');
  await composer(page).press('Enter');
  await expect(assistantMessages(page).last()).toContainText('You said: half-written reply');
  await expect(composer(page)).toHaveValue('');
  await page.reload();
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(composer(page)).toHaveValue('');
});

const htmlIsDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('the theme: Light, Dark or System puts the dark class on <html>, Tailwind follows, a reload keeps it', async ({
  page,
}) => {
  const cspErrors: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  const theme = page.getByLabel('Theme');
  // No choice yet: the system's (dark) preference.
  await expect(theme).toHaveValue('system');
  expect(await htmlIsDark(page)).toBe(true);
  const dark = await bodyBackground(page);

  await expect(async () => {
    await theme.selectOption('light');
    expect(await htmlIsDark(page)).toBe(false);
  }).toPass();
  expect(await bodyBackground(page)).toBe('rgb(255, 255, 255)');
  expect(dark).not.toBe('rgb(255, 255, 255)');
  await page.reload();
  // Applied before paint by the inline script (allowed by the CSP nonce), not after hydration.
  expect(await htmlIsDark(page)).toBe(false);
  await expect(theme).toHaveValue('light');

  await expect(async () => {
    await theme.selectOption('dark');
    expect(await htmlIsDark(page)).toBe(true);
  }).toPass();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.reload();
  expect(await htmlIsDark(page)).toBe(true);
  await expect(theme).toHaveValue('dark');
  expect(await bodyBackground(page)).toBe(dark);

  // System follows the operating system, also as it changes.
  await expect(async () => {
    await theme.selectOption('system');
    expect(await htmlIsDark(page)).toBe(false);
  }).toPass();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => htmlIsDark(page)).toBe(true);
  await page.reload();
  expect(await htmlIsDark(page)).toBe(true);
  expect(cspErrors).toEqual([]);
});

test('the favicon: /icon.svg answers and every page links it', async ({ page, request }) => {
  const icon = await request.get('/icon.svg');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
  await page.goto('/');
  const href = await page.locator('link[rel="icon"]').first().getAttribute('href');
  expect(href).toMatch(/^\/icon\.svg/);
  expect((await request.get(href ?? '')).status()).toBe(200);
});

test('no aria-live over the conversation or its list; a short status says a conversation was deleted', async ({
  page,
}) => {
  await page.goto('/');
  await send(page, 'Live region check');
  await expect(assistantMessages(page).last()).toContainText('You said: Live region check');
  const inLiveRegion = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => el.closest('[aria-live]') !== null);
  expect(await inLiveRegion('[data-message-list]')).toBe(false);
  expect(await inLiveRegion('nav[aria-label="Conversations"] ul')).toBe(false);
  await expect(page.locator('nav[aria-label="Conversations"] [aria-live]')).toHaveCount(0);

  await page.getByRole('button', { name: 'Delete Live region check' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Conversation deleted' })).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Live region check' })).toHaveCount(0);
});

test('no provider: the admin is sent to Admin → Providers, once; another user is told to ask the admin', async ({
  browser,
}) => {
  const adminCtx = await browser.newContext({ baseURL: NO_PROVIDER_URL });
  await signIn(adminCtx, ADMIN, NO_PROVIDER_URL);
  const created = await adminCtx.request.post('/api/admin/users', {
    data: { ...NOPE, role: 'user' },
    headers: originHeaders(NO_PROVIDER_URL),
  });
  expect([201, 409]).toContain(created.status());
  const page = await adminCtx.newPage();
  await page.goto('/');
  const notice = page.locator('[data-no-provider]');
  await expect(notice.getByRole('link', { name: 'Admin → Providers' })).toHaveAttribute(
    'href',
    '/admin/providers',
  );
  await expect(notice).not.toContainText('OPENAI_API_KEY');
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/api/chat') && r.request().method() === 'POST',
  );
  await send(page, 'Anyone home?');
  expect((await answered).status()).toBe(503);
  await expect(page.getByText(/No model provider is configured/)).toHaveCount(1);
  await expect(page.locator('[data-chat-error]')).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(/No model provider is configured/)).toHaveCount(1);
  await adminCtx.close();

  const userCtx = await browser.newContext({ baseURL: NO_PROVIDER_URL });
  await signIn(userCtx, NOPE, NO_PROVIDER_URL);
  const userPage = await userCtx.newPage();
  await userPage.goto('/');
  const userNotice = userPage.locator('[data-no-provider]');
  await expect(userNotice).toContainText('Ask your admin');
  await expect(userNotice.getByRole('link')).toHaveCount(0);
  await userCtx.close();
});
