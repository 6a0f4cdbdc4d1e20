import { expect, test } from '@playwright/test';
import { NO_PROVIDER_URL } from '../playwright.config';
import { ADMIN, originHeaders, SUITE_CHAT_RATE } from './accounts';

// The `setup` project: every spec depends on it (playwright.config.ts), so it runs first on the fresh
// database of each run (the web servers delete data/e2e*), whichever specs run and in whatever order.
// It makes the admin the only way there is — the first sign-up — and tests that this is how it works.

test.describe.configure({ mode: 'serial' });

test('the first account, made through the sign-up form, becomes admin; then sign-up is closed', async ({
  page,
  browser,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByRole('heading', { name: 'Create the admin account' })).toBeVisible();
  await page.getByLabel('Name').fill(ADMIN.name);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();

  const session = await page.request.get('/api/auth/get-session');
  expect((await session.json()).user.role).toBe('admin');
  // The suite sends far more chat requests per minute than a person; e2e/13-limits.spec.ts tests the limit itself.
  await page.request.patch('/api/admin/settings', {
    data: { chatRequestsPerMinute: SUITE_CHAT_RATE },
    headers: originHeaders(),
  });
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name.includes('session_token'))?.httpOnly).toBe(true);

  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  await other.goto('/sign-up');
  await expect(other.getByText('Sign-up is closed')).toBeVisible();
  const api = await stranger.request.post('/api/auth/sign-up/email', {
    data: { name: 'Eve', email: 'eve@example.com', password: 'password-123' },
    headers: originHeaders(),
  });
  expect(api.status()).toBe(403);
  await stranger.close();
});

test('the app without a model provider has its admin too (first sign-up, through the API)', async ({
  playwright,
}) => {
  const ctx = await playwright.request.newContext({ baseURL: NO_PROVIDER_URL });
  const res = await ctx.post('/api/auth/sign-up/email', {
    data: ADMIN,
    headers: originHeaders(NO_PROVIDER_URL),
  });
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).user.role).toBe('admin');
  await ctx.dispose();
});
