// Single sign-on takes an identity only from its own code flow (state, PKCE, the nonce of that sign-in):
// an id_token handed to the auth library's endpoints directly must not sign anyone in.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { oidcTestClient } from '@/e2e/fixtures/oidc-client';

const dir = mkdtempSync(join(tmpdir(), 'sso-id-token-'));
const APP = 'http://127.0.0.1:3996';
process.env.DATABASE_PATH = join(dir, 'app.db');
process.env.APP_URL = APP;

const { handleAuthRequest } = await import('@/app/_server/auth-gate');
const { saveSso } = await import('@/app/_server/sso');
const { getDb } = await import('@/db/client');
const { listUsers } = await import('@/db/queries/users');
const { errorResponse } = await import('@/lib/http');

type Idp = { issuer: string; close(): Promise<void> };
const { startOidcProvider } = (await import(
  new URL('../../e2e/fixtures/oidc-provider.mjs', import.meta.url).href
)) as { startOidcProvider: (o: object) => Promise<Idp> };
const CLIENT = { clientId: 'app', clientSecret: 'app-secret-id-token' };
const REDIRECT = `${APP}/api/auth/callback/sso`;
let idp: Idp;

const post = (path: string, body: unknown, cookie = '') =>
  handleAuthRequest(
    new Request(`${APP}/api/auth${path}`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json', ...(cookie && { cookie }) },
      body: JSON.stringify(body),
    }),
  ).catch((err) => errorResponse(err));

const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

before(async () => {
  idp = await startOidcProvider({ ...CLIENT, redirectUris: [REDIRECT] });
  const admin = await post('/sign-up/email', {
    name: 'Ada',
    email: 'ada@acme.test',
    password: 'admin-password-1',
  });
  assert.equal(admin.status, 200, await admin.clone().text());
  await saveSso({ name: 'Acme', issuer: idp.issuer, ...CLIENT, allowedDomains: ['acme.test'] });
});
after(async () => {
  await idp.close();
  rmSync(dir, { recursive: true, force: true });
});

const client = oidcTestClient(() => idp.issuer, CLIENT, REDIRECT);

/** A valid id_token for `email` from the provider, for this app's client id, from a code flow of someone else's. */
async function idTokenOf(email: string): Promise<string> {
  const { code } = await client.authorize(email, {
    scope: 'openid email profile',
    state: 'elsewhere',
    nonce: 'nonce-elsewhere',
  });
  const tokens = (await (await client.token(code ?? '')).json()) as { id_token: string };
  return tokens.id_token;
}

test('an id_token posted to sign-in/social signs no one in and makes no account', async () => {
  const token = await idTokenOf('zoe@acme.test');
  const res = await post('/sign-in/social', {
    provider: 'sso',
    idToken: { token, nonce: 'nonce-elsewhere' },
  });
  assert.equal(res.status, 400, await res.clone().text());
  assert.doesNotMatch(cookieOf(res), /session_token=/);
  assert.equal(
    (await listUsers(getDb())).some((u) => u.email === 'zoe@acme.test'),
    false,
  );
});

test('an id_token posted to link-social links nothing to the signed-in account', async () => {
  const signedIn = await post('/sign-in/email', { email: 'ada@acme.test', password: 'admin-password-1' });
  assert.equal(signedIn.status, 200);
  const token = await idTokenOf('ada@acme.test');
  const res = await post(
    '/link-social',
    { provider: 'sso', idToken: { token, nonce: 'nonce-elsewhere' } },
    cookieOf(signedIn),
  );
  assert.equal(res.status, 400, await res.clone().text());
  const accounts = getDb()
    .select()
    .from((await import('@/db/schema')).account)
    .all();
  assert.equal(
    accounts.some((a) => a.providerId === 'sso'),
    false,
  );
});
