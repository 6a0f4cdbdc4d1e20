import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { APP_URL, NO_PROVIDER_URL } from '../playwright.config';
import { ADMIN, type Account, chooseRowAction, ensureUser, originHeaders, signIn, specUser } from './helpers';

// Issue 18: the account page (/account), admins' password reset and sign-out, the first-run checklist
// and the web manifest. Accounts whose password changes sign in through the form, not the cached helper.

const h = originHeaders();

/** A browser context signed in through the sign-in form (a session of its own). */
async function formSession(browser: Browser, who: Account, base = APP_URL): Promise<BrowserContext> {
  const ctx = await browser.newContext({ baseURL: base });
  const page = await ctx.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await page.close();
  return ctx;
}

/** A status of an API sign-in (no session kept). */
async function signInStatus(browser: Browser, email: string, password: string): Promise<number> {
  const ctx = await browser.newContext();
  const res = await ctx.request.post('/api/auth/sign-in/email', { data: { email, password }, headers: h });
  await ctx.close();
  return res.status();
}

async function adminContext(browser: Browser, base = APP_URL): Promise<BrowserContext> {
  const ctx = await browser.newContext({ baseURL: base });
  await signIn(ctx, ADMIN, base);
  return ctx;
}

async function userId(admin: BrowserContext, email: string): Promise<string> {
  const { items } = (await (await admin.request.get('/api/admin/users')).json()) as {
    items: Array<{ id: string; email: string }>;
  };
  const id = items.find((u) => u.email === email.toLowerCase())?.id;
  if (!id) throw new Error(`no user ${email}`);
  return id;
}

const sessionsOf = (page: Page) => page.locator('[data-session]');

test('password change: a wrong current password is refused; the right one signs out the other session', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const paula = specUser('s41', 'Paula Password');
  await ensureUser(admin.request, paula);
  const here = await formSession(browser, paula);
  const other = await formSession(browser, paula);

  // The API: anonymous 401, foreign origin 403, bad input 400 naming the field.
  const anon = await browser.newContext();
  expect((await anon.request.post('/api/account/password', { data: {}, headers: h })).status()).toBe(401);
  await anon.close();
  const foreign = await here.request.post('/api/account/password', {
    data: { currentPassword: paula.password, newPassword: 'whatever-123' },
    headers: { origin: 'https://evil.test' },
  });
  expect(foreign.status()).toBe(403);
  const short = await here.request.post('/api/account/password', {
    data: { currentPassword: paula.password, newPassword: 'short' },
    headers: h,
  });
  expect(short.status()).toBe(400);
  expect((await short.json()).error.fields.newPassword).toBeTruthy();

  const page = await here.newPage();
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(sessionsOf(page)).toHaveCount(2);
  await expect(page.locator('[data-session="current"]')).toContainText('This device');

  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password').fill('paula-new-password-2');
  await page.getByRole('button', { name: 'Change password' }).click();
  // (Next's route announcer is an empty alert of its own.)
  await expect(page.getByRole('alert').filter({ hasText: 'The current password is wrong.' })).toBeVisible();
  expect((await other.request.get('/api/conversations')).status(), 'nothing changed').toBe(200);

  await page.getByLabel('Current password').fill(paula.password);
  await page.getByLabel('New password').fill('paula-new-password-2');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed. Your other sessions were signed out.')).toBeVisible();
  await expect(sessionsOf(page)).toHaveCount(1);

  // The other browser is signed out; this one goes on.
  const otherPage = await other.newPage();
  await otherPage.goto('/');
  await expect(otherPage).toHaveURL(/\/sign-in$/);
  expect((await here.request.get('/api/conversations')).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();

  expect(await signInStatus(browser, paula.email, paula.password)).toBe(401);
  expect(await signInStatus(browser, paula.email, 'paula-new-password-2')).toBe(200);
  await Promise.all([admin, here, other].map((c) => c.close()));
});

test('sessions: sign out one other session, then everywhere else; another user’s session is a 404', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const sam = specUser('s41', 'Sam Sessions');
  await ensureUser(admin.request, sam);
  const here = await formSession(browser, sam);
  const second = await formSession(browser, sam);
  const third = await formSession(browser, sam);
  const alive = async () =>
    (
      await Promise.all(
        [second, third].map(async (c) => (await c.request.get('/api/conversations')).status()),
      )
    ).filter((s) => s === 200).length;

  // Session lists never carry session tokens; someone else's session id is not found.
  const list = (await (await here.request.get('/api/account/sessions')).json()) as {
    items: Array<Record<string, unknown>>;
  };
  expect(list.items).toHaveLength(3);
  expect(list.items.filter((s) => s.current)).toHaveLength(1);
  for (const s of list.items)
    expect(Object.keys(s).sort()).toEqual(['createdAt', 'current', 'id', 'lastActive', 'userAgent'].sort());
  const adminSessions = (await (await admin.request.get('/api/account/sessions')).json()) as {
    items: Array<{ id: string }>;
  };
  const adminSession = adminSessions.items[0]?.id ?? 'none';
  expect((await here.request.delete(`/api/account/sessions/${adminSession}`, { headers: h })).status()).toBe(
    404,
  );
  expect((await admin.request.get('/api/admin/users')).status(), 'the admin is still signed in').toBe(200);
  // The auth library's own session list (with tokens) is not served.
  expect((await here.request.get('/api/auth/list-sessions')).status()).toBe(404);

  const page = await here.newPage();
  await page.goto('/account');
  await expect(sessionsOf(page)).toHaveCount(3);
  await page.locator('[data-session="other"]').first().getByRole('button', { name: 'Sign out' }).click();
  await expect(sessionsOf(page)).toHaveCount(2);
  expect(await alive()).toBe(1);

  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(sessionsOf(page)).toHaveCount(1);
  expect(await alive()).toBe(0);
  await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toHaveCount(0);
  expect((await here.request.get('/api/conversations')).status()).toBe(200);
  await Promise.all([admin, here, second, third].map((c) => c.close()));
});

test('delete account: typed confirmation; conversations and shares are gone and the account cannot sign in', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const dora = specUser('s41', 'Dora Delete');
  await ensureUser(admin.request, dora);
  const ctx = await formSession(browser, dora);
  const id = `s41-del-${Date.now().toString(36)}`;
  const chat = await ctx.request.post('/api/chat', {
    data: { id, message: { id: `${id}-u`, role: 'user', parts: [{ type: 'text', text: 'Remember me' }] } },
    headers: h,
  });
  expect(chat.status(), await chat.text()).toBe(200);
  await chat.body();
  const share = await ctx.request.post(`/api/conversations/${id}/share`, { data: {}, headers: h });
  expect(share.status()).toBe(201);
  const { token } = (await share.json()) as { token: string };
  expect((await ctx.request.get(`/share/${token}`)).status()).toBe(200);

  // The API wants the account's email, from our origin.
  const wrong = await ctx.request.delete('/api/account', { data: { confirm: 'nope' }, headers: h });
  expect(wrong.status()).toBe(400);
  const foreign = await ctx.request.delete('/api/account', {
    data: { confirm: dora.email },
    headers: { origin: 'https://evil.test' },
  });
  expect(foreign.status()).toBe(403);

  const page = await ctx.newPage();
  await page.goto('/account');
  const button = page.getByRole('button', { name: 'Delete account' });
  await expect(button).toBeDisabled();
  const confirm = page.getByLabel(/Type your email/);
  await confirm.fill('someone-else@example.com');
  await expect(button).toBeDisabled();
  await confirm.fill(dora.email);
  await button.click();
  await expect(page).toHaveURL(/\/sign-in$/);

  expect(await signInStatus(browser, dora.email, dora.password)).toBe(401);
  expect((await ctx.request.get('/api/conversations')).status()).toBe(401);
  expect((await admin.request.get(`/share/${token}`)).status()).toBe(404);
  const users = (await (await admin.request.get('/api/admin/users')).json()) as {
    items: Array<{ email: string }>;
  };
  expect(users.items.map((u) => u.email)).not.toContain(dora.email.toLowerCase());
  // The conversation row is gone: its id is free again (another user's existing id would be a 404).
  const reuse = await admin.request.post('/api/chat', {
    data: { id, message: { id: `${id}-a`, role: 'user', parts: [{ type: 'text', text: 'Mine now' }] } },
    headers: h,
  });
  expect(reuse.status(), await reuse.text()).toBe(200);
  await reuse.body();
  const mine = (await (await admin.request.get(`/api/conversations/${id}`)).json()) as {
    messages: Array<{ parts: Array<{ type: string; text?: string }> }>;
  };
  expect(JSON.stringify(mine.messages)).not.toContain('Remember me');
  await admin.request.delete(`/api/conversations/${id}`, { headers: h });
  await Promise.all([admin, ctx].map((c) => c.close()));
});

test('the last admin cannot delete themself (API and page); another admin can delete their own account', async ({
  browser,
}) => {
  // On the instance without a provider, where no spec makes a second admin.
  const admin = await adminContext(browser, NO_PROVIDER_URL);
  const np = originHeaders(NO_PROVIDER_URL);
  const { items } = (await (await admin.request.get('/api/admin/users')).json()) as {
    items: Array<{ email: string; role: string; disabled: boolean }>;
  };
  // Precondition: the suite's admin is the only enabled admin there (else this test would delete it).
  expect(items.filter((u) => u.role === 'admin' && !u.disabled).map((u) => u.email)).toEqual([ADMIN.email]);
  const refused = await admin.request.delete('/api/account', { data: { confirm: ADMIN.email }, headers: np });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error.message).toContain('last admin');

  const page = await admin.newPage();
  await page.goto('/account');
  await page.getByLabel(/Type your email/).fill(ADMIN.email);
  await page.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'You are the last admin' })).toBeVisible();
  expect((await admin.request.get('/api/admin/users')).status()).toBe(200);
  await admin.close();

  // Where another admin exists, an admin may go.
  const main = await adminContext(browser);
  const second = specUser('s41', 'Otto Otheradmin');
  const created = await main.request.post('/api/admin/users', {
    data: { ...second, role: 'admin' },
    headers: h,
  });
  expect(created.status()).toBe(201);
  const otto = await formSession(browser, second);
  const gone = await otto.request.delete('/api/account', { data: { confirm: second.email }, headers: h });
  expect(gone.status()).toBe(204);
  expect(await signInStatus(browser, second.email, second.password)).toBe(401);
  await Promise.all([main, otto].map((c) => c.close()));
});

test('an admin resets a user’s password and signs them out everywhere; both are audited', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const rita = specUser('s41', 'Rita Reset');
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
  const nina = specUser('s41', 'Nina Noprovider');
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
  const mona = specUser('s41', 'Mona Mcp');
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
