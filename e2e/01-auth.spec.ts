import { expect, test } from '@playwright/test';
import { ADMIN, ensureUser, originHeaders, signIn, specUser } from './helpers';

// The first sign-up (it makes the admin, then sign-up closes) is tested by e2e/first-admin.setup.ts,
// the setup every spec depends on.

const BOB = specUser('s01', 'Bob User');

test.describe.configure({ mode: 'serial' });

test('admin opens sign-up and creates users; sign in and sign out work', async ({ page, browser }) => {
  await signIn(page, ADMIN);
  await ensureUser(page.request, BOB);

  const bobContext = await browser.newContext();
  const bob = await bobContext.newPage();
  await bob.goto('/');
  await expect(bob).toHaveURL(/\/sign-in$/);
  await bob.getByLabel('Email').fill(BOB.email);
  await bob.getByLabel('Password').fill('wrong-password');
  await bob.getByRole('button', { name: 'Sign in' }).click();
  await expect(bob.getByText('Invalid email or password')).toBeVisible();
  await bob.getByLabel('Password').fill(BOB.password);
  await bob.getByRole('button', { name: 'Sign in' }).click();
  await expect(bob.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await expect(bob.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  expect((await bob.request.get('/api/admin/settings')).status()).toBe(403);
  await bob.getByRole('button', { name: 'Sign out' }).click();
  await expect(bob).toHaveURL(/\/sign-in$/);
  expect((await bob.request.get('/api/conversations')).status()).toBe(401);
  await bobContext.close();

  // Opening sign-up lets a stranger register, as a plain user.
  const open = await page.request.patch('/api/admin/settings', {
    data: { signupOpen: true },
    headers: originHeaders(),
  });
  expect(await open.json()).toMatchObject({ signupOpen: true });
  const strangerContext = await browser.newContext();
  const res = await strangerContext.request.post('/api/auth/sign-up/email', {
    data: { name: 'Carol', email: 'carol@example.com', password: 'carol-password-1' },
    headers: originHeaders(),
  });
  expect(res.ok()).toBeTruthy();
  expect((await res.json()).user.role).toBe('user');
  await strangerContext.close();
  await page.request.patch('/api/admin/settings', { data: { signupOpen: false }, headers: originHeaders() });
});

test('a disabled user cannot sign in and their session ends', async ({ page, browser }) => {
  await signIn(page, ADMIN);
  const dave = { name: 'Dave', email: 'dave@example.com', password: 'dave-password-1' };
  await ensureUser(page.request, dave);
  const ctx = await browser.newContext();
  await signIn(ctx, dave);
  expect((await ctx.request.get('/api/conversations')).status()).toBe(200);
  const users = (await (await page.request.get('/api/admin/users')).json()).items as Array<{
    id: string;
    email: string;
  }>;
  const id = users.find((u) => u.email === dave.email)?.id;
  const patch = await page.request.patch(`/api/admin/users/${id}`, {
    data: { disabled: true },
    headers: originHeaders(),
  });
  expect(patch.status()).toBe(200);
  expect((await ctx.request.get('/api/conversations')).status()).toBe(401);
  const again = await ctx.request.post('/api/auth/sign-in/email', {
    data: { email: dave.email, password: dave.password },
    headers: originHeaders(),
  });
  expect(again.ok()).toBeFalsy();
  await ctx.close();
});
