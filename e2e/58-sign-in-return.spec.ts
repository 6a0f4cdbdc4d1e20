// Signing in (or creating an account) from a share page or any page of the app comes back to it ("return
// to" through ?next=), and only to a path of this app: another origin, a protocol-relative or backslash
// trick, or a script URL lands on `/`.
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import {
  type Account,
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
let chatPath: string;

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
  chatPath = `/c/${id}`;
  const shared = await page.request.post(`/api/conversations/${id}/share`, { data: {}, headers: h });
  expect(shared.status()).toBe(201);
  shareUrl = ((await shared.json()) as { url: string }).url;
  sharePath = new URL(shareUrl).pathname;
  await owner.close();
});

/** Fills the sign-in form the page shows and submits it. */
async function submitSignIn(page: Page, account: Account = VIEWER): Promise<void> {
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
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

/** The page is sign-in (or sign-up) carrying `next` (null: none) for where to go once signed in. */
async function expectAuthPage(page: Page, path: '/sign-in' | '/sign-up', next: string | null): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === path && url.searchParams.get('next') === next);
}

test('a signed-out visitor opening a page of the app signs in and lands on that page, its query kept', async ({
  browser,
}) => {
  const pages: Array<[string, Account]> = [
    [chatPath, OWNER],
    ['/account', OWNER],
    ['/shares', OWNER],
    ['/assistants', OWNER],
    ['/admin/audit?kind=refused', ADMIN],
  ];
  for (const [path, account] of pages) {
    const context = await signedOut(browser);
    const page = await context.newPage();
    await page.goto(path);
    await expectAuthPage(page, '/sign-in', path);
    await submitSignIn(page, account);
    await expect(page).toHaveURL(`${APP_URL}${path}`);
    if (path === chatPath)
      await expect(page.locator('[data-role="user"] [data-message-text]')).toHaveText([
        'A conversation worth continuing',
      ]);
    await context.close();
  }
  // Home needs no `next`; a path that is not safe to return to is left out (sign-in then goes home).
  const context = await signedOut(browser);
  const page = await context.newPage();
  for (const path of ['/', '/c/%2F%2Fevil.example', '/c/%5Cevil.example']) {
    await page.goto(path);
    await expect(page).toHaveURL(`${APP_URL}/sign-in`);
  }
  await context.close();
});

test('without JavaScript, a conversation opened signed out is where the sign-in form lands, after a wrong password too', async ({
  browser,
}) => {
  const context = await signedOut(browser, false);
  const page = await context.newPage();
  await page.goto(`${chatPath}?from=mail`);
  await expectAuthPage(page, '/sign-in', `${chatPath}?from=mail`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await submitSignIn(page, OWNER);
  await expect(page).toHaveURL(`${APP_URL}${chatPath}?from=mail`);
  await context.close();
});

/** Runs `body` with sign-up open (the admin's setting), then closes it again. */
async function withSignUpOpen(browser: Browser, body: () => Promise<void>): Promise<void> {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  const set = (signupOpen: boolean) =>
    admin.request.patch('/api/admin/settings', { data: { signupOpen }, headers: h });
  expect((await set(true)).ok()).toBe(true);
  try {
    await body();
  } finally {
    await set(false);
    await admin.close();
  }
}

/** Fills the sign-up form the page shows and submits it. */
async function submitSignUp(page: Page, account: Account): Promise<void> {
  await page.getByLabel('Name').fill(account.name);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? 'with' : 'without';
  test(`${mode} JavaScript, creating an account from a share page's sign-in link returns to the share page; a hostile next goes home`, async ({
    browser,
  }) => {
    const newcomer = specUser('s58', javaScriptEnabled ? 'Nina Newcomer' : 'Noel Newcomer');
    const stranger = specUser('s58', javaScriptEnabled ? 'Hugo Hostile' : 'Hana Hostile');
    await withSignUpOpen(browser, async () => {
      const context = await signedOut(browser, javaScriptEnabled);
      const page = await context.newPage();
      await page.goto(shareUrl);
      await page.getByRole('link', { name: 'Sign in to continue this conversation' }).click();
      await page.getByRole('link', { name: 'Create an account' }).click();
      await expectAuthPage(page, '/sign-up', sharePath);
      // The "Sign in" link back keeps it too.
      await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute(
        'href',
        `/sign-in?next=${encodeURIComponent(sharePath)}`,
      );
      // A refused sign-up (the email is taken) says so and keeps where to go.
      await submitSignUp(page, { ...newcomer, email: VIEWER.email });
      await expect(page.locator('form').getByRole('alert')).toHaveText(
        'An account with this email already exists. Sign in, or use another email.',
      );
      await expectAuthPage(page, '/sign-up', sharePath);
      await submitSignUp(page, newcomer);
      await expect(page).toHaveURL(shareUrl);
      await expect(page.getByRole('button', { name: 'Continue in a new chat' })).toBeVisible();
      await context.close();

      const other = await signedOut(browser, javaScriptEnabled);
      const hostile = await other.newPage();
      for (const next of [
        'https://evil.example',
        '/\\evil.example',
        'javascript:alert(1)',
        '/%2F%2Fevil.example',
      ]) {
        await hostile.goto(`/sign-in?next=${encodeURIComponent(next)}`);
        await expect(hostile.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
          'href',
          '/sign-up',
        );
        await hostile.goto(`/sign-up?next=${encodeURIComponent(next)}`);
        await expect(hostile.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute(
          'href',
          '/sign-in',
        );
      }
      await hostile.goto(`/sign-up?next=${encodeURIComponent('//evil.example')}`);
      await submitSignUp(hostile, stranger);
      await expect(hostile).toHaveURL(`${APP_URL}/`);
      await other.close();

      // In Chinese the refusal is in Chinese too (the auth library answers in English).
      const zh = await browser.newContext({ javaScriptEnabled, locale: 'zh-CN' });
      const zhPage = await zh.newPage();
      await zhPage.goto('/sign-up');
      await zhPage.getByLabel('姓名').fill(newcomer.name);
      await zhPage.getByLabel('邮箱').fill(VIEWER.email);
      await zhPage.getByLabel('密码').fill(newcomer.password);
      await zhPage.getByRole('button', { name: '创建账户' }).click();
      await expect(zhPage.locator('form').getByRole('alert')).toHaveText(
        '此邮箱已有账户。请登录，或使用其他邮箱。',
      );
      await zh.close();
    });
  });
}

test('with sign-up closed, its page sends the visitor to sign in with where they were going', async ({
  browser,
}) => {
  const context = await signedOut(browser);
  const page = await context.newPage();
  await page.goto(`/sign-in?next=${encodeURIComponent(chatPath)}`);
  await expect(page.getByRole('link', { name: 'Create an account' })).toHaveCount(0);
  await page.goto(`/sign-up?next=${encodeURIComponent(chatPath)}`);
  await expect(page.getByText('Sign-up is closed')).toBeVisible();
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await expectAuthPage(page, '/sign-in', chatPath);
  await submitSignIn(page, OWNER);
  await expect(page).toHaveURL(`${APP_URL}${chatPath}`);
  await context.close();
});
