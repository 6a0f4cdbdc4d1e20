// Single sign-on with a broken or hostile identity provider whose answers hold U+0000 (NUL), which a Postgres
// text column refuses and SQLite stores (run this spec with E2E_DATABASE=postgres as well). The provider's
// words (a name) are kept with U+FFFD in place of NUL; an email or account id (`sub`) holding NUL identifies
// nobody, so the sign-in is refused on the sign-in page like an unverified email, and nothing is written.
// The provider is the OIDC fixture (e2e/fixtures/oidc-provider.mjs), answering per email with other claims.
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { ADMIN, databaseContains, originHeaders, signIn } from './helpers';
import { type Idp, ssoSignIn, startIdp, userByEmail } from './sso-helpers';

const h = originHeaders();
const CLIENT = { clientId: 'mcp-chat-s64', clientSecret: 'oidc-s64-client-secret' };
const UNUSABLE = /Test IdP sent an email address or account id that cannot be used here/;

test.describe.configure({ mode: 'serial' });

let idp: Idp;
let admin: BrowserContext;

test.beforeAll(async ({ browser }) => {
  idp = await startIdp(CLIENT);
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  const res = await admin.request.put('/api/admin/sso', {
    data: { name: 'Test IdP', issuer: idp.issuer, ...CLIENT, allowedDomains: ['example.com'] },
    headers: h,
  });
  expect(res.status(), await res.text()).toBe(200);
});

test.afterAll(async () => {
  await admin.request.delete('/api/admin/sso', { headers: h });
  await admin.close();
  await idp.close();
});

const sessionUser = async (page: Page) =>
  ((await (await page.request.get('/api/auth/get-session')).json())?.user ?? null) as {
    name: string;
    email: string;
  } | null;

/** Signs in with the provider answering `claims` for this email; the page where the app sent the browser. */
async function signInWith(
  browser: Parameters<typeof ssoSignIn>[0],
  email: string,
  claims: Parameters<Idp['overrideClaims']>[1],
) {
  idp.overrideClaims(email, claims);
  try {
    return await ssoSignIn(browser, email);
  } finally {
    idp.overrideClaims(email, null);
  }
}

test('a name holding NUL, in the id_token or from userinfo: the person signs in and the name shows U+FFFD', async ({
  browser,
}) => {
  const nora = await signInWith(browser, 'nora-s64@example.com', { claims: { name: 'Nora\u0000Null' } });
  await expect(nora.page).toHaveURL(`${APP_URL}/`);
  await expect(nora.page.getByText('Nora\uFFFDNull', { exact: true })).toBeVisible();
  expect(await sessionUser(nora.page)).toMatchObject({
    name: 'Nora\uFFFDNull',
    email: 'nora-s64@example.com',
  });
  await nora.context.close();

  // A provider whose id_token names nobody's email: the app asks /userinfo, which holds the NUL.
  const before = idp.stats().userinfo;
  const uma = await signInWith(browser, 'uma-s64@example.com', {
    idToken: { email: undefined, name: undefined },
    userinfo: { name: 'Uma\u0000Info' },
  });
  await expect(uma.page).toHaveURL(`${APP_URL}/`);
  expect(idp.stats().userinfo).toBeGreaterThan(before);
  await expect(uma.page.getByText('Uma\uFFFDInfo', { exact: true })).toBeVisible();
  await uma.context.close();
  expect(await userByEmail(admin.request, 'uma-s64@example.com')).toMatchObject({ name: 'Uma\uFFFDInfo' });
});

test('a person who signed in before still signs in when the provider now sends a name holding NUL', async ({
  browser,
}) => {
  const first = await ssoSignIn(browser, 'ned-s64@example.com');
  await expect(first.page).toHaveURL(`${APP_URL}/`);
  await first.context.close();
  const again = await signInWith(browser, 'ned-s64@example.com', { claims: { name: 'Ned\u0000Renamed' } });
  await expect(again.page).toHaveURL(`${APP_URL}/`);
  // The name taken at the first sign-in stays (a later sign-in does not copy the provider's name).
  expect(await sessionUser(again.page)).toMatchObject({ name: 'ned-s64', email: 'ned-s64@example.com' });
  await again.context.close();
});

test('an email holding NUL is refused on the sign-in page, for a newcomer and for someone known; nothing is written', async ({
  browser,
}) => {
  for (const claims of [
    { claims: { email: 'eve\u0000nulmail-s64@example.com' } },
    { idToken: { email: undefined }, userinfo: { email: 'eve\u0000nulmail-s64@example.com' } },
  ]) {
    const eve = await signInWith(browser, 'eve-s64@example.com', claims);
    await expect(eve.page).toHaveURL(/\/sign-in\?error=identity_not_usable/);
    await expect(eve.page.getByRole('main').getByRole('alert')).toHaveText(UNUSABLE);
    expect(await sessionUser(eve.page)).toBeNull();
    await eve.context.close();
  }
  const { items } = (await (await admin.request.get('/api/admin/users')).json()) as {
    items: Array<{ email: string }>;
  };
  expect(items.filter((u) => u.email.includes('nulmail'))).toEqual([]);
  expect(await databaseContains('nulmail-s64')).toBe(false);

  // Ned's provider account (the same `sub`) now answers with an email holding NUL: refused, and Ned's
  // account is as it was (his next ordinary sign-in works).
  const ned = await signInWith(browser, 'ned-s64@example.com', {
    claims: { email: 'ned\u0000nulmail-s64@example.com' },
  });
  await expect(ned.page).toHaveURL(/\/sign-in\?error=identity_not_usable/);
  await expect(ned.page.getByRole('main').getByRole('alert')).toHaveText(UNUSABLE);
  expect(await sessionUser(ned.page)).toBeNull();
  await ned.context.close();
  expect(await databaseContains('nulmail-s64')).toBe(false);
  const back = await ssoSignIn(browser, 'ned-s64@example.com');
  await expect(back.page).toHaveURL(`${APP_URL}/`);
  expect(await sessionUser(back.page)).toMatchObject({ email: 'ned-s64@example.com' });
  await back.context.close();
});

test('an account id (sub) holding NUL is refused the same way, at sign-in and when linking; no account is made', async ({
  browser,
}) => {
  const sam = await signInWith(browser, 'sam-s64@example.com', { claims: { sub: 'user-\u0000nulsub-s64' } });
  await expect(sam.page).toHaveURL(/\/sign-in\?error=identity_not_usable/);
  await expect(sam.page.getByRole('main').getByRole('alert')).toHaveText(UNUSABLE);
  expect(await sessionUser(sam.page)).toBeNull();
  await sam.context.close();
  expect(await userByEmail(admin.request, 'sam-s64@example.com')).toBeNull();

  // Ned's email, under a `sub` holding NUL: another identity than Ned's (a `sub` is matched exactly), so
  // it is refused as any other identity claiming an existing account's email; Ned's account is unchanged.
  const other = await signInWith(browser, 'ned-s64@example.com', { claims: { sub: 'ned-\u0000nulsub-s64' } });
  await expect(other.page).toHaveURL(/\/sign-in\?error=account_not_linked/);
  expect(await sessionUser(other.page)).toBeNull();
  await other.context.close();

  // The admin links their account to the provider, which answers with such a `sub`.
  idp.overrideClaims(ADMIN.email, { claims: { sub: 'admin-\u0000nulsub-s64' } });
  const page = await admin.newPage();
  await page.goto('/admin/sso');
  await page.getByRole('button', { name: 'Link my account to Test IdP' }).click();
  await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  idp.overrideClaims(ADMIN.email, null);
  await expect(page).toHaveURL(/\/admin\/sso\?error=identity_not_usable/);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(UNUSABLE);
  await expect(page.getByRole('button', { name: 'Link my account to Test IdP' })).toBeVisible();
  await page.close();
  expect(await databaseContains('nulsub-s64')).toBe(false);
});
