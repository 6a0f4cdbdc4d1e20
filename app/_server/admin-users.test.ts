import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

// Accounts an admin creates, through the auth library the app builds, on a fresh SQLite file.

const dir = mkdtempSync(join(tmpdir(), 'admin-users-'));
process.env.DATABASE_PATH = join(dir, 'app.db');
process.env.APP_URL = 'http://127.0.0.1:3999';
const { createUserAsAdmin } = await import('@/app/_server/admin-users');
const { getDb } = await import('@/db/client');
const { listUsers } = await import('@/db/queries/users');
const { AppError } = await import('@/lib/errors');
after(() => rmSync(dir, { recursive: true, force: true }));

test('one email created twice at once (a double click, two admins): one account, the other a 409', async () => {
  const input = { name: 'Cy', email: 'Cy@Example.test', password: 'cy-password-1', role: 'user' as const };
  const outcomes = await Promise.allSettled([createUserAsAdmin(input), createUserAsAdmin(input)]);
  assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
  const refused = outcomes.find((o) => o.status === 'rejected');
  assert.ok(refused?.reason instanceof AppError, String(refused?.reason));
  assert.equal(refused.reason.code, 'conflict');
  assert.deepEqual(refused.reason.fields, { email: 'is already registered' });
  assert.deepEqual(
    (await listUsers(getDb())).map((u) => u.email),
    ['cy@example.test'],
  );
});
