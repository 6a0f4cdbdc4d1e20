// Single sign-on end to end below the browser: the auth library instance the app builds, the admin's
// runtime change (no restart), and the OIDC fixture as the provider.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

const dir = mkdtempSync(join(tmpdir(), 'sso-'));
const APP = 'http://127.0.0.1:3999';
process.env.DATABASE_PATH = join(dir, 'app.db');
process.env.APP_URL = APP;

const { handleAuthRequest } = await import('@/app/_server/auth-gate');
const { handleSsoFormPost } = await import('@/app/_server/auth-form-post');
const { assertPasswordSignInCanBeOff, removeSso, saveSso, ssoOverview } = await import('@/app/_server/sso');
const { getDb } = await import('@/db/client');
const { listUsers } = await import('@/db/queries/users');
const { updateSettings } = await import('@/db/queries/settings');
const { account, settings } = await import('@/db/schema');
const { eq } = await import('drizzle-orm');

type Idp = { issuer: string; close(): Promise<void> };
const { startOidcProvider } = (await import(
  new URL('../../e2e/fixtures/oidc-provider.mjs', import.meta.url).href
)) as {
  startOidcProvider: (o: object) => Promise<Idp>;
};
const CLIENT = { clientId: 'app', clientSecret: 'app-secret-canary' };
let idp: Idp;

before(async () => {
  idp = await startOidcProvider({ ...CLIENT, redirectUris: [`${APP}/api/auth/callback/sso`] });
  const res = await handleAuthRequest(
    new Request(`${APP}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@acme.test', password: 'admin-password-1' }),
    }),
  );
  assert.equal(res.status, 200, await res.clone().text());
});
after(async () => {
  await idp.close();
  rmSync(dir, { recursive: true, force: true });
});

const cookieHeader = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

/** Through the provider's form as `email` from a start (a page that moves on to the provider); returns the app callback's answer. */
async function throughProvider(start: Response, email: string, session = ''): Promise<Response> {
  assert.equal(start.status, 200);
  const page = await start.clone().text();
  const location = (/http-equiv="refresh" content="0;url=([^"]+)"/.exec(page)?.[1] ?? '').replaceAll(
    '&amp;',
    '&',
  );
  assert.ok(location.startsWith(`${idp.issuer}/authorize?`), location);
  const html = await (await fetch(location)).text();
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const back = await fetch(`${idp.issuer}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request, email, email_verified: 'true', decision: 'allow' }),
  });
  const callback = back.headers.get('location') ?? '';
  assert.ok(callback.startsWith(`${APP}/api/auth/callback/sso?`), callback);
  const cookies = [session, cookieHeader(start)].filter(Boolean).join('; ');
  return handleAuthRequest(new Request(callback, { headers: { cookie: cookies } }));
}

/** "Sign in with …" as `email`. */
async function signInAs(email: string): Promise<Response> {
  const start = await handleSsoFormPost(
    new Request(`${APP}/api/auth-form/sso`, { method: 'POST', headers: { origin: APP } }),
    'sso',
  );
  return throughProvider(start, email);
}

test('an admin still creates accounts directly (the identity checks run outside an endpoint too)', async () => {
  const { createUserAsAdmin } = await import('@/app/_server/admin-users');
  const row = await createUserAsAdmin({
    name: 'Cy',
    email: 'cy@other.test',
    password: 'cy-password-1',
    role: 'user',
  });
  assert.equal(row.email, 'cy@other.test');
});

test('without a provider, "Sign in with" goes back to the sign-in page with an error', async () => {
  const res = await handleSsoFormPost(
    new Request(`${APP}/api/auth-form/sso`, { method: 'POST', headers: { origin: APP } }),
    'sso',
  );
  assert.equal(res.headers.get('location'), '/sign-in?error=sso_unavailable');
});

test('a provider that fails its checks is not saved', async () => {
  await assert.rejects(
    saveSso({ name: 'Acme', issuer: `${idp.issuer}/elsewhere`, ...CLIENT, allowedDomains: ['acme.test'] }),
    /discovery document .* answered HTTP 404/,
  );
  assert.equal((await ssoOverview('nobody')).provider, null);
});

test('a provider saved at runtime is used at once; a new person becomes a user; other domains make no account', async () => {
  await saveSso({ name: 'Acme', issuer: idp.issuer, ...CLIENT, allowedDomains: ['acme.test'] });
  const overview = await ssoOverview('nobody');
  assert.equal(JSON.stringify(overview).includes(CLIENT.clientSecret), false);
  // Sealed at rest: the settings table never holds the secret in the clear.
  const raw = JSON.stringify(getDb().select().from(settings).all());
  assert.ok(raw.includes('clientSecretSealed') && !raw.includes(CLIENT.clientSecret));

  const ok = await signInAs('bea@acme.test');
  assert.equal(ok.status, 302);
  assert.equal(new URL(ok.headers.get('location') ?? '', APP).pathname, '/');
  assert.match(cookieHeader(ok), /session_token=/);
  assert.equal((await listUsers(getDb())).find((u) => u.email === 'bea@acme.test')?.role, 'user');

  const refused = await signInAs('eve@evil.test');
  assert.match(refused.headers.get('location') ?? '', /\/sign-in\?error=domain_not_allowed/);
  assert.equal(
    (await listUsers(getDb())).some((u) => u.email === 'eve@evil.test'),
    false,
  );

  // The existing password account of the admin is not taken over by the same email at the provider.
  const takeover = await signInAs('ada@acme.test');
  assert.match(takeover.headers.get('location') ?? '', /\/sign-in\?error=account_not_linked/);
});

test('password sign-in cannot go off before an admin has linked the provider; removal is refused while it is off', async () => {
  await assert.rejects(assertPasswordSignInCanBeOff(), /no admin has signed in with Acme/);
  await updateSettings(getDb(), { passwordSignIn: false });
  await assert.rejects(async () => removeSso(), /Turn password sign-in back on/);
  const res = await handleAuthRequest(
    new Request(`${APP}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@acme.test', password: 'admin-password-1' }),
    }),
  ).catch((e: Error) => e);
  assert.ok(res instanceof Error && /Password sign-in is turned off/.test(res.message));
  await updateSettings(getDb(), { passwordSignIn: true });
});

test('an admin links their account; then password sign-in may go off, and changes that would lock admins out are refused', async () => {
  const password = await handleAuthRequest(
    new Request(`${APP}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@acme.test', password: 'admin-password-1' }),
    }),
  );
  const session = cookieHeader(password);
  const start = await handleSsoFormPost(
    new Request(`${APP}/api/auth-form/sso-link`, {
      method: 'POST',
      headers: { origin: APP, cookie: session },
    }),
    'sso-link',
  );
  const linked = await throughProvider(start, 'ada@acme.test', session);
  assert.equal(linked.headers.get('location'), '/admin/sso?linked=1');
  const rows = getDb().select().from(account).where(eq(account.providerId, 'sso')).all();
  assert.ok(
    rows.length >= 2 && rows.every((r) => r.accountId.startsWith(`${idp.issuer} user-`)),
    'keyed by issuer and sub',
  );

  await assertPasswordSignInCanBeOff();
  await updateSettings(getDb(), { passwordSignIn: false });
  await assert.rejects(
    saveSso({ name: 'Acme', issuer: idp.issuer, ...CLIENT, allowedDomains: ['elsewhere.test'] }),
    /no admin could sign in/,
  );
  await saveSso({
    name: 'Acme 2',
    issuer: idp.issuer,
    clientId: CLIENT.clientId,
    allowedDomains: ['acme.test'],
  });
  // The admin signs in with the provider (the stored secret was kept).
  const again = await signInAs('ada@acme.test');
  assert.equal(new URL(again.headers.get('location') ?? '', APP).pathname, '/');
  await updateSettings(getDb(), { passwordSignIn: true });
});

test('password sign-in switched off while another admin removes the provider: one is refused, someone can sign in', async () => {
  const { PATCH } = await import('@/app/api/admin/settings/route');
  const { getGlobalDispatcher, setGlobalDispatcher } = await import('undici');
  const signedIn = await handleAuthRequest(
    new Request(`${APP}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@acme.test', password: 'admin-password-1' }),
    }),
  );
  // The switch's check fetches the provider's discovery document: held until the removal has run.
  let reached = () => {};
  const atCheck = new Promise<void>((resolve) => (reached = resolve));
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const original = getGlobalDispatcher();
  setGlobalDispatcher(
    original.compose((dispatch) => (opts, handler) => {
      if (!String(opts.path).includes('openid-configuration')) return dispatch(opts, handler);
      reached();
      void released.then(() => dispatch(opts, handler));
      return true;
    }),
  );
  try {
    const switching = PATCH(
      new Request(`${APP}/api/admin/settings`, {
        method: 'PATCH',
        headers: { origin: APP, cookie: cookieHeader(signedIn), 'content-type': 'application/json' },
        body: JSON.stringify({ passwordSignIn: false }),
      }),
      undefined,
    );
    await atCheck;
    await removeSso(); // another admin, while the check runs: password sign-in is still on
    release();
    const res = await switching;
    assert.equal(res.status, 409, await res.clone().text());
    const overview = await ssoOverview('nobody');
    assert.ok(overview.passwordSignIn || overview.provider, 'password sign-in or the provider is left');
  } finally {
    release();
    setGlobalDispatcher(original);
    await updateSettings(getDb(), { passwordSignIn: true });
  }
});
