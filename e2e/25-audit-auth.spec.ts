import { type APIRequestContext, expect, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { ADMIN, type Account, ensureUser, fromAddress, originHeaders, signIn } from './helpers';

const h = originHeaders();
const json = { ...h, 'content-type': 'application/json' };
const account = (tag: string): Account => ({
  name: `${tag} User`,
  email: `${tag}-${Date.now()}@example.com`,
  password: `${tag}-password-1`,
});

/** Signs in through the JSON endpoint in a fresh request context of its own (its own session). */
async function session(
  playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } },
  who: Account,
) {
  const ctx = await playwright.request.newContext({ baseURL: APP_URL });
  const res = await ctx.post('/api/auth/sign-in/email', {
    data: { email: who.email, password: who.password },
    headers: h,
  });
  expect(res.status(), await res.text()).toBe(200);
  return ctx;
}

test('A4: the auth endpoints refuse bodies over 1 MB and over-long names and emails', async ({
  playwright,
  browser,
}) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  const who = account('limits');
  await ensureUser(admin.request, who);
  const user = await session(playwright, who);
  const big = JSON.stringify({ name: 'x'.repeat(60 * 1024 * 1024) });
  const started = Date.now();
  const huge = await user.post('/api/auth/update-user', { data: big, headers: json, timeout: 60_000 });
  expect(huge.status()).toBe(413);
  console.log(`A4: a 60 MB update-user body was refused in ${Date.now() - started} ms`);
  expect((await user.get('/api/health')).status(), 'the server still answers').toBe(200);
  // Readiness is public (load balancers probe it signed out) and says what it checked.
  const probe = await playwright.request.newContext({ baseURL: APP_URL });
  const ready = await probe.get('/api/ready');
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({ ok: true, checks: { process: 'ok', database: 'ok' } });
  await probe.dispose();

  const long = await user.post('/api/auth/update-user', { data: { name: 'n'.repeat(101) }, headers: h });
  expect(long.status()).toBe(400);
  expect((await long.json()).error.fields.name).toMatch(/100/);
  const ok = await user.post('/api/auth/update-user', { data: { name: 'n'.repeat(100) }, headers: h });
  expect(ok.status()).toBe(200);
  const signUp = await user.post('/api/auth/sign-up/email', {
    data: { name: 'E', email: `${'e'.repeat(250)}@example.com`, password: 'password-123' },
    headers: h,
  });
  expect(signUp.status()).toBe(400);
  expect((await signUp.json()).error.fields.email).toMatch(/254/);
  expect(
    (
      await user.post('/api/auth/sign-in/email', { data: 'x'.repeat(2 * 1024 * 1024), headers: json })
    ).status(),
  ).toBe(413);
  await Promise.all([user.dispose(), admin.close()]);
});

test('A7: sign-in limits key on the socket address, not X-Forwarded-For; per-account back-off spares known addresses', async ({
  browser,
}) => {
  const attacker = fromAddress('127.0.0.2');
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) {
    const res = await attacker('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { ...json, 'x-forwarded-for': `203.0.113.${i}` },
      body: JSON.stringify({ email: `nobody-${i}-${Date.now()}@example.com`, password: 'wrong-password' }),
    });
    statuses.push(res.status);
  }
  expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
  expect(
    statuses.slice(30).every((s) => s === 429),
    statuses.join(','),
  ).toBe(true);
  const bystander = await fromAddress('127.0.0.3')('/api/auth/sign-in/email', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: `nobody-${Date.now()}@example.com`, password: 'wrong-password' }),
  });
  expect(bystander.status, 'another address is not limited').toBe(401);

  // Per account, across addresses: five wrong passwords, then a wait (never more than a minute).
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  const carol = account('carol');
  await ensureUser(admin.request, carol);
  const signInFrom = (address: string, password: string) =>
    fromAddress(address)('/api/auth/sign-in/email', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: carol.email, password }),
    });
  expect((await signInFrom('127.0.0.9', carol.password)).status, 'carol signs in from her own address').toBe(
    200,
  );
  for (let i = 0; i < 5; i++)
    expect((await signInFrom(`127.0.0.${20 + i}`, 'guess-password')).status).toBe(401);
  const blocked = await signInFrom('127.0.0.30', carol.password);
  expect(blocked.status).toBe(429);
  const retryAfter = Number(blocked.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect((await signInFrom('127.0.0.9', carol.password)).status, 'her known address is not locked out').toBe(
    200,
  );
  await admin.close();
});

test('A8: sign-out, disabling, a password change and a role change take effect on the very next request', async ({
  playwright,
  browser,
}) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  const dave = account('dave');
  await ensureUser(admin.request, dave);
  const users = (await (await admin.request.get('/api/admin/users')).json()).items as Array<{
    id: string;
    email: string;
  }>;
  const daveId = users.find((u) => u.email === dave.email.toLowerCase())?.id;

  // Sign-out: a copy of the cookies taken before it is dead at once.
  const a = await session(playwright, dave);
  const copy = await playwright.request.newContext({
    baseURL: APP_URL,
    storageState: await a.storageState(),
  });
  expect((await copy.get('/api/conversations')).status()).toBe(200);
  expect((await a.post('/api/auth/sign-out', { data: {}, headers: h })).status()).toBe(200);
  expect((await copy.get('/api/conversations')).status()).toBe(401);
  expect(
    (await copy.post('/api/auth/update-user', { data: { name: 'Still here' }, headers: h })).status(),
  ).toBe(401);

  // A password change signs out every other session.
  const b = await session(playwright, dave);
  const c = await session(playwright, dave);
  const changed = await b.post('/api/auth/change-password', {
    data: { currentPassword: dave.password, newPassword: 'dave-new-password-2' },
    headers: h,
  });
  expect(changed.status()).toBe(200);
  expect((await c.get('/api/conversations')).status()).toBe(401);
  expect((await b.get('/api/conversations')).status(), 'the session that changed it goes on').toBe(200);

  // Role change: promoted, then demoted; each counts at once.
  expect((await b.get('/api/admin/users')).status()).toBe(403);
  expect(
    (
      await admin.request.patch(`/api/admin/users/${daveId}`, { data: { role: 'admin' }, headers: h })
    ).status(),
  ).toBe(200);
  expect((await b.get('/api/admin/users')).status()).toBe(200);
  expect(
    (
      await admin.request.patch(`/api/admin/users/${daveId}`, { data: { role: 'user' }, headers: h })
    ).status(),
  ).toBe(200);
  expect((await b.get('/api/admin/users')).status()).toBe(403);

  // Disabled: the session is dead everywhere, the auth library's own endpoints included.
  expect(
    (
      await admin.request.patch(`/api/admin/users/${daveId}`, { data: { disabled: true }, headers: h })
    ).status(),
  ).toBe(200);
  expect((await b.get('/api/conversations')).status()).toBe(401);
  expect(
    (await b.post('/api/auth/update-user', { data: { name: 'Disabled but writing' }, headers: h })).status(),
  ).toBe(401);
  const after = (await (await admin.request.get('/api/admin/users')).json()).items as Array<{
    email: string;
    name: string;
  }>;
  expect(after.find((u) => u.email === dave.email.toLowerCase())?.name).toBe(dave.name);
  await Promise.all([a, b, c, copy].map((x) => x.dispose()));
  await admin.close();
});

test('A9: without JavaScript the sign-in form posts; the password never appears in a URL', async ({
  browser,
}) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  const erin = account('erin');
  await ensureUser(admin.request, erin);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.goto('/sign-in');
  await expect(page.locator('form')).toHaveAttribute('method', 'post');
  await page.getByLabel('Email').fill(erin.email);
  await page.getByLabel('Password').fill('wrong-password-9');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/sign-in\?error=credentials$/);
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
  await page.getByLabel('Email').fill(erin.email);
  await page.getByLabel('Password').fill(erin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${APP_URL}/`);
  await expect(page.getByRole('link', { name: 'New chat' })).toBeVisible();
  expect(urls.filter((u) => u.includes('password'))).toEqual([]);
  await Promise.all([context.close(), admin.close()]);
});
