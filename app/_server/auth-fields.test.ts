// The auth library's own endpoints that write a user's name (sign-up, update-user) must hold it to the
// app's rule (PATCH /api/account: trimmed, 1–100 characters): the gate checked the trimmed name but
// passed the body on as sent, so a name padded with whitespace was stored at any length up to 1 MB.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { authPost, signUp } from '@/app/_server/test-auth';

const dir = mkdtempSync(join(tmpdir(), 'auth-fields-'));
const APP = 'http://127.0.0.1:3987';
process.env.DATABASE_PATH = join(dir, 'app.db');
process.env.APP_URL = APP;

const { getDb } = await import('@/db/client');
const { listUsers } = await import('@/db/queries/users');
const { updateSettings } = await import('@/db/queries/settings');
const { getSessionUser } = await import('@/app/_server/session');

const post = (path: string, body: unknown, cookie = '') => authPost(APP, path, body, cookie);

let cookie = '';
before(async () => {
  cookie = await signUp(APP, 'Ada', 'ada@example.com');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const padded = `Eve${' '.repeat(5000)}`;
const names = async () => (await listUsers(getDb())).map((u) => u.name);

test('update-user never stores a name longer than 100 characters, however it is padded', async () => {
  const res = await post('/update-user', { name: padded }, cookie);
  for (const name of await names())
    assert.ok(name.length <= 100, `stored a name of ${name.length} characters (${res.status})`);
  assert.equal(res.status, 200, await res.text());
  assert.deepEqual(await names(), ['Eve']);
});

test('a name changed through update-user is the one the app routes see next (no stale cached user)', async () => {
  assert.equal((await getSessionUser(new Headers({ cookie })))?.name, 'Eve');
  const res = await post('/update-user', { name: 'Eva' }, cookie);
  assert.equal(res.status, 200, await res.text());
  assert.equal((await getSessionUser(new Headers({ cookie })))?.name, 'Eva');
});

test('sign-up never stores a name longer than 100 characters, however it is padded', async () => {
  await updateSettings(getDb(), { signupOpen: true });
  const res = await post('/sign-up/email', {
    name: padded,
    email: 'eve@example.com',
    password: 'eve-password-1',
  });
  for (const name of await names())
    assert.ok(name.length <= 100, `stored a name of ${name.length} characters (${res.status})`);
  assert.equal(res.status, 200, await res.text());
  assert.deepEqual((await names()).sort(), ['Eva', 'Eve']);
});
