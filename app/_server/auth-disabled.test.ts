// A disabled account is refused by every app route (getSessionUser), and disabling it deletes its
// sessions. A session row can still outlive the switch: a sign-in whose session is written just after
// the admin's disable (the library's create hook read the user a moment before), or the flag set outside
// the app (the user cache takes such changes within a minute). The auth library's own endpoints that act
// for the signed-in user do not look at `disabled`: such a session renamed the account and changed its
// password through /api/auth/update-user and /api/auth/change-password, and /api/auth/get-session showed it
// signed in.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { authPost, sessionCookie } from '@/app/_server/test-auth';

const dir = mkdtempSync(join(tmpdir(), 'auth-disabled-'));
const APP = 'http://127.0.0.1:3984';
process.env.DATABASE_PATH = join(dir, 'app.db');
process.env.APP_URL = APP;

const { getDb } = await import('@/db/client');
const { user } = await import('@/db/schema');
const { updateSettings } = await import('@/db/queries/settings');
const { getAuth } = await import('@/app/_server/auth');

const post = (path: string, body: unknown, cookie = '') => authPost(APP, path, body, cookie);

const BO = { name: 'Bo', email: 'bo@example.com', password: 'bo-password-1' };
let cookie = '';
before(async () => {
  await post('/sign-up/email', { name: 'Ada', email: 'ada@example.com', password: 'ada-password-1' });
  await updateSettings(getDb(), { signupOpen: true });
  const res = await post('/sign-up/email', BO);
  assert.equal(res.status, 200, await res.clone().text());
  cookie = sessionCookie(res);
  // Disabled while this session row stays (what the race or a change outside the app leaves behind).
  getDb().update(user).set({ disabled: true }).where(eq(user.email, BO.email)).run();
});
after(() => rmSync(dir, { recursive: true, force: true }));

const row = () => getDb().select().from(user).where(eq(user.email, BO.email)).get();

test("a disabled account's session is no session to the auth library's get-session either", async () => {
  const { handleAuthRequest } = await import('@/app/_server/auth-gate');
  const get = (cookie: string) =>
    handleAuthRequest(new Request(`${APP}/api/auth/get-session`, { headers: { cookie } }));
  const res = await get(cookie);
  assert.equal(res.status, 200);
  assert.equal(await res.json(), null);
  // The enabled admin's session is still answered.
  const ada = await post('/sign-in/email', { email: 'ada@example.com', password: 'ada-password-1' });
  const own = (await (await get(sessionCookie(ada))).json()) as { user?: { email?: string } } | null;
  assert.equal(own?.user?.email, 'ada@example.com');
});

test('a disabled account cannot rename itself through the auth library', async () => {
  const res = await post('/update-user', { name: 'Renamed' }, cookie);
  assert.equal(res.status, 401, await res.text());
  assert.equal(row()?.name, BO.name);
});

test('a disabled account cannot change its password through the auth library', async () => {
  const res = await post(
    '/change-password',
    { currentPassword: BO.password, newPassword: 'bo-password-2' },
    cookie,
  );
  assert.equal(res.status, 401, await res.text());
  const ctx = await (await getAuth()).$context;
  const credential = await ctx.internalAdapter.findCredentialAccount(row()?.id ?? '');
  assert.ok(credential?.password);
  assert.equal(await ctx.password.verify({ hash: credential.password, password: BO.password }), true);
});
