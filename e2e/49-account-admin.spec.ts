import { expect, test } from '@playwright/test';
import { NO_PROVIDER_URL } from '../playwright.config';
import { adminContext, formSession, signInStatus, userId } from './account-helpers';
import { ADMIN, chooseRowAction, ensureUser, originHeaders, signIn, specUser } from './helpers';

// Issue 18 (continued from 41-account.spec.ts): admins' password reset and sign-out, the web manifest,
// the first-run checklist, and the account page's sidebar link and connected MCP servers.

const h = originHeaders();

test('an admin resets a user’s password and signs them out everywhere; both are audited', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const rita = specUser('s49', 'Rita Reset');
  await ensureUser(admin.request, rita);
  const ritaId = await userId(admin, rita.email);
  const before = await formSession(browser, rita);

  // Only admins, from our origin, with a valid password, for a user that exists.
  const path = `/api/admin/users/${ritaId}/password`;
  expect((await before.request.post(path, { data: { password: 'x'.repeat(12) }, headers: h })).status()).toBe(
    403,
  );
  expect(
    (
      await admin.request.post(path, {
        data: { password: 'x'.repeat(12) },
        headers: { origin: 'https://evil.test' },
      })
    ).status(),
  ).toBe(403);
  expect((await admin.request.post(path, { data: { password: 'short' }, headers: h })).status()).toBe(400);
  expect(
    (
      await admin.request.post('/api/admin/users/no-such-user/password', {
        data: { password: 'x'.repeat(12) },
        headers: h,
      })
    ).status(),
  ).toBe(404);
  expect((await before.request.get('/api/conversations')).status(), 'nothing changed yet').toBe(200);

  const page = await admin.newPage();
  await page.goto('/admin/users');
  const row = page.locator(`[data-user="${rita.email.toLowerCase()}"]`);
  await chooseRowAction(page, rita.email.toLowerCase(), 'Reset password');
  const reset = page.getByRole('dialog', { name: `Reset password: ${rita.email.toLowerCase()}` });
  await reset.getByLabel(`New password for ${rita.email.toLowerCase()}`).fill('rita-new-password-2');
  await reset.getByRole('button', { name: 'Set password', exact: true }).click();
  await expect(reset).toBeHidden();
  await expect(row.getByRole('status')).toContainText('signed out everywhere');

  expect((await before.request.get('/api/conversations')).status(), 'the old session is gone').toBe(401);
  expect(await signInStatus(browser, rita.email, rita.password)).toBe(401);
  const after = await formSession(browser, { ...rita, password: 'rita-new-password-2' });
  expect((await after.request.get('/api/conversations')).status()).toBe(200);

  await chooseRowAction(page, rita.email.toLowerCase(), 'Sign out everywhere');
  await expect(row.getByRole('status')).toHaveText(`${rita.email.toLowerCase()} was signed out everywhere.`);
  expect((await after.request.get('/api/conversations')).status()).toBe(401);

  const audit = (await (await admin.request.get('/api/admin/audit')).json()) as {
    items: Array<{ action: string; target: string | null; outcome: string }>;
  };
  const mine = audit.items.filter((e) => e.target === rita.email.toLowerCase() && e.outcome === 'ok');
  expect(mine.map((e) => e.action)).toEqual(expect.arrayContaining(['user.password-reset', 'user.sign-out']));
  await Promise.all([admin, before, after].map((c) => c.close()));
});

test('the web manifest is served with installable icons', async ({ page, request }) => {
  const res = await request.get('/manifest.webmanifest');
  expect(res.status()).toBe(200);
  const manifest = (await res.json()) as {
    name: string;
    display: string;
    theme_color: string;
    start_url: string;
    icons: Array<{ src: string; sizes: string; type: string }>;
  };
  expect(manifest.name).toBe('MCP Chat');
  expect(manifest.display).toBe('standalone');
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.start_url).toBe('/');
  const sizes = manifest.icons.map((i) => i.sizes);
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons) {
    const got = await request.get(icon.src);
    expect(got.status(), icon.src).toBe(200);
    expect(got.headers()['content-type'], icon.src).toContain(icon.type);
  }
  await page.goto('/sign-in');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', /manifest\.webmanifest/);
  const apple = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
  expect(apple).toBeTruthy();
  const touch = await request.get(apple ?? '');
  expect(touch.status()).toBe(200);
  expect(touch.headers()['content-type']).toContain('image/png');
});

test('first run: the admin sees a setup checklist whose steps link to the admin pages and show when done', async ({
  browser,
}) => {
  const admin = await adminContext(browser, NO_PROVIDER_URL);
  const page = await admin.newPage();
  await page.goto('/');
  const list = page.locator('[data-setup-checklist]');
  await expect(list.getByRole('heading', { name: 'Set up MCP Chat' })).toBeVisible();
  const step = (key: string) => list.locator(`[data-setup-step="${key}"]`);
  await expect(step('provider').getByRole('link')).toHaveAttribute('href', '/admin/providers');
  await expect(step('provider')).toHaveAttribute('data-done', 'false');
  await expect(step('mcp').getByRole('link')).toHaveAttribute('href', '/admin/mcp');
  await expect(step('mcp')).toHaveAttribute('data-done', 'false');
  await expect(step('users').getByRole('link')).toHaveAttribute('href', '/admin/users');
  // The no-provider notice is there once, beside the checklist.
  await expect(page.getByText(/No model provider is configured/)).toHaveCount(1);

  // Another account on that instance: the "invite users" step is done.
  const nina = specUser('s49', 'Nina Noprovider');
  const created = await admin.request.post('/api/admin/users', {
    data: { ...nina, role: 'user' },
    headers: originHeaders(NO_PROVIDER_URL),
  });
  expect([201, 409]).toContain(created.status());
  await page.reload();
  await expect(step('users')).toHaveAttribute('data-done', 'true');
  await expect(step('users')).toContainText('done');

  // A user who is not an admin sees no checklist.
  const user = await browser.newContext({ baseURL: NO_PROVIDER_URL });
  await signIn(user, nina, NO_PROVIDER_URL);
  const userPage = await user.newPage();
  await userPage.goto('/');
  await expect(userPage.locator('[data-no-provider]')).toContainText('Ask your admin');
  await expect(userPage.locator('[data-setup-checklist]')).toHaveCount(0);
  await Promise.all([admin, user].map((c) => c.close()));
});

test('the sidebar links to the account page', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/');
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Connected MCP servers' })).toBeVisible();

  // On a phone the page fits the screen's width.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.reload();
  await expect(page.getByRole('button', { name: 'Change password' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('connected MCP servers: the user’s own connections are listed with Disconnect', async ({ browser }) => {
  const admin = await adminContext(browser);
  const mona = specUser('s49', 'Mona Mcp');
  await ensureUser(admin.request, mona);
  const made = await admin.request.post('/api/mcp/servers', {
    data: {
      name: 's41mine',
      transport: 'stdio',
      command: 'node',
      args: ['e2e/fixtures/test-mcp-server.mjs', 'stdio'],
      scope: 'user',
      allow: [mona.email],
    },
    headers: h,
  });
  expect(made.status(), await made.text()).toBe(201);
  const serverId = ((await made.json()) as { id: string }).id;
  try {
    const ctx = await browser.newContext();
    await signIn(ctx, mona);
    const page = await ctx.newPage();
    await page.goto('/account');
    const row = page.locator('[data-connection="s41mine"]');
    await expect(row).toBeVisible();
    const forgotten = page.waitForResponse(
      (r) => r.url().endsWith('/api/mcp/connections/s41mine') && r.request().method() === 'DELETE',
    );
    await row.getByRole('button', { name: 'Disconnect: s41mine' }).click();
    expect((await forgotten).status()).toBe(200);
    await expect(page.getByText('Disconnected from s41mine.')).toBeAttached();
    await ctx.close();

    // Someone the server is not allowed to sees no such connection.
    const adminPage = await admin.newPage();
    await adminPage.goto('/account');
    await expect(adminPage.getByRole('heading', { name: 'Connected MCP servers' })).toBeVisible();
    await expect(adminPage.locator('[data-connection="s41mine"]')).toHaveCount(0);
  } finally {
    await admin.request.delete(`/api/mcp/servers/${serverId}`, { headers: h });
    await admin.close();
  }
});
