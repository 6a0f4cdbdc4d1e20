// Issue 18: single sign-on with an OpenID Connect provider an admin sets up at runtime (no restart).
// The provider is our fixture (e2e/fixtures/oidc-provider.mjs: discovery, JWKS, a sign-in form, PKCE,
// RS256 id_tokens), started on a free port.
import { type BrowserContext, expect, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { ADMIN, ensureUser, originHeaders, signIn, specUser } from './helpers';
import { type Idp, ssoSignIn, startIdp, userByEmail } from './sso-helpers';

const h = originHeaders();
const PAULA = specUser('s42', 'Paula Password');
const CLIENT = { clientId: 'mcp-chat-s42', clientSecret: 'oidc-s42-client-secret-canary' };

// Each test builds on the provider the first one sets up.
test.describe.configure({ mode: 'serial' });

let idp: Idp;
let admin: BrowserContext;

test.beforeAll(async ({ browser }) => {
  idp = await startIdp(CLIENT);
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
});

test.afterAll(async () => {
  // Whatever happened, the other specs sign in with passwords.
  await admin.request.patch('/api/admin/settings', { data: { passwordSignIn: true }, headers: h });
  await admin.close();
  await idp.close();
});

test('an admin sets up the provider at runtime; a new person signs in with it and lands in the chat as a user', async ({
  browser,
}) => {
  // Nothing to fall back on yet: password sign-in cannot be turned off.
  const refused = await admin.request.patch('/api/admin/settings', {
    data: { passwordSignIn: false },
    headers: h,
  });
  expect(refused.status()).toBe(409);

  // The issuer is checked: https (http only on loopback), and a discovery document that answers.
  const insecure = await admin.request.put('/api/admin/sso', {
    data: { name: 'X', issuer: 'http://idp.example.test', ...CLIENT, allowedDomains: ['example.com'] },
    headers: h,
  });
  expect(insecure.status()).toBe(400);
  const noDiscovery = await admin.request.put('/api/admin/sso', {
    data: { name: 'X', issuer: `${idp.issuer}/nowhere`, ...CLIENT, allowedDomains: ['example.com'] },
    headers: h,
  });
  expect(noDiscovery.status()).toBe(400);
  expect((await noDiscovery.json()).error.message).toMatch(/discovery document/);

  const page = await admin.newPage();
  await page.goto('/admin/sso');
  await expect(page.getByRole('heading', { name: 'Single sign-on', level: 1 })).toBeVisible();
  await expect(page.getByText(`${APP_URL}/api/auth/callback/sso`)).toBeVisible();
  await page.getByLabel('Display name').fill('Test IdP');
  await page.getByLabel('Issuer URL').fill(idp.issuer);
  await page.getByLabel('Client ID').fill(CLIENT.clientId);
  await page.getByLabel('Client secret').fill(CLIENT.clientSecret);
  await page.getByLabel('Allowed email domains').fill('example.com');
  await page.getByRole('button', { name: 'Save provider' }).click();
  await expect(page.getByRole('status')).toHaveText(/Saved/);
  await page.close();

  // The secret never goes back to the browser.
  const overview = await admin.request.get('/api/admin/sso');
  const text = await overview.text();
  expect(text).not.toContain(CLIENT.clientSecret);
  expect(JSON.parse(text).provider).toMatchObject({ name: 'Test IdP', hasClientSecret: true });
  expect(await (await admin.request.get('/api/admin/settings')).text()).not.toContain(CLIENT.clientSecret);

  const { page: newcomer, context } = await ssoSignIn(browser, 'nina-s42@example.com');
  await expect(newcomer).toHaveURL(`${APP_URL}/`);
  await expect(newcomer.getByRole('textbox', { name: 'Message' })).toBeVisible();
  const session = await (await newcomer.request.get('/api/auth/get-session')).json();
  expect(session.user).toMatchObject({ email: 'nina-s42@example.com', role: 'user' });
  // The id_token was bound to this sign-in (nonce) and PKCE was used (the fixture requires it).
  expect(idp.stats().lastIdTokenClaims?.nonce).toEqual(expect.any(String));
  // A user is not an admin: the single sign-on API and page do not exist for them.
  expect((await newcomer.request.get('/api/admin/sso')).status()).toBe(403);
  const put = await newcomer.request.put('/api/admin/sso', {
    data: { name: 'Evil', issuer: idp.issuer, ...CLIENT, allowedDomains: ['evil.test'] },
    headers: h,
  });
  expect(put.status()).toBe(403);
  expect((await newcomer.request.delete('/api/admin/sso', { headers: h })).status()).toBe(403);
  expect((await newcomer.goto('/admin/sso'))?.status()).toBe(404);
  await context.close();
});

test('a person from another domain, or with an unverified email, gets a clear error and no account', async ({
  browser,
}) => {
  const other = await ssoSignIn(browser, 'mallory@evil.test');
  await expect(other.page).toHaveURL(/\/sign-in\?error=domain_not_allowed/);
  await expect(other.page.getByRole('main').getByRole('alert')).toHaveText(
    /email's domain may not sign in here/,
  );
  await other.context.close();

  const unverified = await ssoSignIn(browser, 'ulla-s42@example.com', { verified: false });
  await expect(unverified.page.getByRole('main').getByRole('alert')).toHaveText(
    /has not verified your email/,
  );
  await unverified.context.close();

  expect(await userByEmail(admin.request, 'mallory@evil.test')).toBeNull();
  expect(await userByEmail(admin.request, 'ulla-s42@example.com')).toBeNull();
});

test('an existing password account is not taken over by signing in with the same email', async ({
  browser,
}) => {
  await ensureUser(admin.request, PAULA);
  const { page, context } = await ssoSignIn(browser, PAULA.email);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(/already exists/);
  expect((await (await page.request.get('/api/auth/get-session')).json())?.user ?? null).toBeNull();
  await context.close();
});

test('password sign-in goes off only once an admin has linked the provider; then the form is gone and the API refuses it', async ({
  browser,
}) => {
  const notLinked = await admin.request.patch('/api/admin/settings', {
    data: { passwordSignIn: false },
    headers: h,
  });
  expect(notLinked.status()).toBe(409);
  expect((await notLinked.json()).error.message).toMatch(/no admin has signed in with Test IdP/);

  // The admin links their own account: signed in, and the same verified email at the provider.
  const page = await admin.newPage();
  await page.goto('/admin/sso');
  await page.getByRole('button', { name: 'Link my account to Test IdP' }).click();
  await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/admin\/sso\?linked=1/);
  await expect(page.getByText('Your account is linked to Test IdP')).toBeVisible();

  const toggle = page.getByRole('checkbox', { name: 'Allow sign-in and sign-up with email and password' });
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(toggle).not.toBeChecked();
  await page.close();

  // Signed out: no password form, only the provider; the API refuses passwords (sign-in and sign-up).
  const anon = await browser.newContext();
  const signInPage = await anon.newPage();
  await signInPage.goto('/sign-in');
  await expect(signInPage.getByRole('button', { name: 'Sign in with Test IdP' })).toBeVisible();
  await expect(signInPage.getByLabel('Password')).toHaveCount(0);
  await expect(signInPage.getByText('Password sign-in is turned off')).toBeVisible();
  const api = await anon.request.post('/api/auth/sign-in/email', {
    data: { email: ADMIN.email, password: ADMIN.password },
    headers: h,
  });
  expect(api.status()).toBe(403);
  const form = await anon.request.post('/api/auth-form/sign-in', {
    form: { email: ADMIN.email, password: ADMIN.password },
    headers: h,
    maxRedirects: 0,
  });
  expect(form.status()).toBe(303);
  expect(form.headers()['set-cookie'] ?? '').not.toContain('session_token');
  await anon.close();

  // The admin still gets in, with the provider, and is still an admin.
  const back = await ssoSignIn(browser, ADMIN.email);
  await expect(back.page).toHaveURL(`${APP_URL}/`);
  expect((await back.page.request.get('/api/admin/sso')).status()).toBe(200);
  await back.context.close();

  // Removing the provider now would lock everyone out: refused.
  expect((await admin.request.delete('/api/admin/sso', { headers: h })).status()).toBe(409);

  const on = await admin.request.patch('/api/admin/settings', { data: { passwordSignIn: true }, headers: h });
  expect(on.status()).toBe(200);
  const paula = await browser.newContext();
  const signedIn = await paula.request.post('/api/auth/sign-in/email', {
    data: { email: PAULA.email, password: PAULA.password },
    headers: h,
  });
  expect(signedIn.status()).toBe(200);
  await paula.close();
});

test('a change to the provider applies at once, without a restart', async ({ browser }) => {
  const res = await admin.request.put('/api/admin/sso', {
    data: {
      name: 'Team IdP',
      issuer: idp.issuer,
      clientId: CLIENT.clientId,
      allowedDomains: ['example.org'],
    },
    headers: h,
  });
  expect(res.status(), await res.text()).toBe(200);
  // Renamed, and example.com no longer allowed (the stored secret was kept: sign-in still reaches the provider).
  const { page, context } = await ssoSignIn(browser, 'omar-s42@example.com', {
    button: 'Sign in with Team IdP',
  });
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(/email's domain may not sign in here/);
  await context.close();
  const ok = await ssoSignIn(browser, 'olga-s42@example.org', { button: 'Sign in with Team IdP' });
  await expect(ok.page).toHaveURL(`${APP_URL}/`);
  await ok.context.close();
});

test('signing in with the provider from /sign-in?next= returns to that page of the app, never elsewhere', async ({
  browser,
}) => {
  const button = 'Sign in with Team IdP';
  const start = `/sign-in?next=${encodeURIComponent('/account')}`;
  const back = await ssoSignIn(browser, 'olga-s42@example.org', { button, start });
  await expect(back.page).toHaveURL(`${APP_URL}/account`);
  await back.context.close();
  // A refused sign-in comes back to the sign-in page still holding where to go.
  const refused = await ssoSignIn(browser, 'omar-s42@example.com', { button, start });
  await expect(refused.page).toHaveURL(/\/sign-in\?next=%2Faccount&error=domain_not_allowed(&|$)/);
  await refused.context.close();
  const away = await ssoSignIn(browser, 'olga-s42@example.org', {
    button,
    start: '/sign-in?next=%2F%2Fevil.example',
  });
  await expect(away.page).toHaveURL(`${APP_URL}/`);
  await away.context.close();
});
