// Signing in from a share page comes back to it ("return to" through /sign-in?next=), and only to a path
// of this app: another origin, a protocol-relative or backslash trick, or a script URL lands on `/`.
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import {
  ADMIN,
  assistantMessages,
  conversationIdFromUrl,
  ensureUser,
  originHeaders,
  send,
  signIn,
  specUser,
} from './helpers';

const h = originHeaders();
const OWNER = specUser('s58', 'Olive Owner');
const VIEWER = specUser('s58', 'Vera Viewer');
let shareUrl: string;
let sharePath: string;

test.beforeAll(async ({ browser }) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, OWNER);
  await ensureUser(admin.request, VIEWER);
  await admin.close();
  const owner = await browser.newContext();
  await signIn(owner, OWNER);
  const page = await owner.newPage();
  await page.goto('/');
  await send(page, 'A conversation worth continuing');
  await expect(assistantMessages(page).last()).not.toBeEmpty();
  const id = conversationIdFromUrl(page);
  const shared = await page.request.post(`/api/conversations/${id}/share`, { data: {}, headers: h });
  expect(shared.status()).toBe(201);
  shareUrl = ((await shared.json()) as { url: string }).url;
  sharePath = new URL(shareUrl).pathname;
  await owner.close();
});

/** Fills the sign-in form the page shows and submits it. */
async function submitSignIn(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(VIEWER.email);
  await page.getByLabel('Password').fill(VIEWER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signedOut(browser: Browser, javaScriptEnabled = true): Promise<BrowserContext> {
  return browser.newContext({ javaScriptEnabled });
}

test("a signed-out viewer signs in from a share page's link and is back on it, where Continue works", async ({
  browser,
}) => {
  const context = await signedOut(browser);
  const page = await context.newPage();
  await page.goto(shareUrl);
  await page.getByRole('link', { name: 'Sign in to continue this conversation' }).click();
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await submitSignIn(page);
  await expect(page).toHaveURL(shareUrl);
  await page.getByRole('button', { name: 'Continue in a new chat' }).click();
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
  await expect(page.locator('[data-role="user"] [data-message-text]')).toHaveText([
    'A conversation worth continuing',
  ]);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();

  // Signed in, the same link goes straight back to the share page.
  await page.goto(`/sign-in?next=${encodeURIComponent(sharePath)}`);
  await expect(page).toHaveURL(shareUrl);
  await context.close();
});

test('without JavaScript the form post returns to the share page too, and a wrong password keeps it', async ({
  browser,
}) => {
  const context = await signedOut(browser, false);
  const page = await context.newPage();
  await page.goto(shareUrl);
  await page.getByRole('link', { name: 'Sign in to continue this conversation' }).click();
  await page.getByLabel('Email').fill(VIEWER.email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await submitSignIn(page);
  await expect(page).toHaveURL(shareUrl);
  await expect(page.getByRole('link', { name: 'Sign in to continue this conversation' })).toHaveCount(0);
  await context.close();
});

for (const hostile of ['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)']) {
  test(`next=${hostile} lands on / after signing in`, async ({ browser }) => {
    for (const javaScriptEnabled of [true, false]) {
      const context = await signedOut(browser, javaScriptEnabled);
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(`/sign-in?next=${encodeURIComponent(hostile)}`);
      await submitSignIn(page);
      await expect(page).toHaveURL(`${APP_URL}/`);
      expect(dialogs).toEqual([]);
      await context.close();
    }
  });
}
