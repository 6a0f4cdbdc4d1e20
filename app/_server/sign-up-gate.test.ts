// Sign-up through the auth library's endpoint while the admin keeps it closed (SPEC §3): the answer
// must not depend on whether the email already has an account.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

const dir = mkdtempSync(join(tmpdir(), 'sign-up-gate-'));
const APP = 'http://127.0.0.1:3998';
process.env.DATABASE_PATH = join(dir, 'app.db');
process.env.APP_URL = APP;

const { handleAuthRequest } = await import('@/app/_server/auth-gate');
const { errorResponse } = await import('@/lib/http');
const { getDb } = await import('@/db/client');
const { countUsers } = await import('@/db/queries/users');
const { updateSettings } = await import('@/db/queries/settings');

const ADMIN = { name: 'Ada', email: 'ada@example.com', password: 'admin-password-1' };

/** POST /api/auth/sign-up/email as the route answers it (thrown errors become their JSON answer). */
function signUp(body: { name: string; email: string; password: string }): Promise<Response> {
  return handleAuthRequest(
    new Request(`${APP}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  ).catch((err) => errorResponse(err));
}

before(async () => {
  const first = await signUp(ADMIN);
  assert.equal(first.status, 200, await first.clone().text());
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('closed sign-up answers alike for a registered and an unknown email (no account enumeration)', async () => {
  await updateSettings(getDb(), { signupOpen: false });
  const taken = await signUp({ name: 'Eve', email: ADMIN.email, password: 'eve-password-1' });
  const unknown = await signUp({ name: 'Eve', email: 'nobody@example.com', password: 'eve-password-1' });
  const [takenText, unknownText] = [await taken.text(), await unknown.text()];
  assert.equal(unknown.status, 403, unknownText);
  assert.equal(taken.status, unknown.status, `registered email: ${taken.status} ${takenText}`);
  assert.equal(takenText, unknownText);
  assert.equal(await countUsers(getDb()), 1);
});

test('open sign-up still registers a new account, and says when an email is taken', async () => {
  await updateSettings(getDb(), { signupOpen: true });
  const fresh = await signUp({ name: 'Bo', email: 'bo@example.com', password: 'bo-password-1' });
  assert.equal(fresh.status, 200, await fresh.clone().text());
  assert.equal(((await fresh.json()) as { user: { role: string } }).user.role, 'user');
  const again = await signUp({ name: 'Bo', email: 'bo@example.com', password: 'bo-password-1' });
  assert.equal(again.status, 422);
  await updateSettings(getDb(), { signupOpen: false });
});
