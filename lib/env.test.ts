import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, test } from 'node:test';
import { getEnv } from '@/lib/env';
import { resetProcessState } from '@/lib/process-state';

const root = mkdtempSync(join(tmpdir(), 'env-'));
const saved = { ...process.env };
const mode = (path: string) => statSync(path).mode & 0o777;

/** getEnv() parsed afresh from these variables (it is cached per process). */
function freshEnv(vars: Record<string, string | undefined>) {
  resetProcessState();
  for (const key of ['DATABASE_PATH', 'AUTH_SECRET', 'ENCRYPTION_KEY']) delete process.env[key];
  Object.assign(process.env, vars);
  return getEnv();
}

afterEach(() => {
  resetProcessState();
  process.env = { ...saved };
});
after(() => rmSync(root, { recursive: true, force: true }));

test('A10: the data folder is made 0700 and the generated secrets 0600, also when they existed with wider modes', () => {
  const fresh = freshEnv({ DATABASE_PATH: join(root, 'fresh', 'data', 'app.db') });
  assert.equal(mode(fresh.dataDir), 0o700);
  for (const file of ['auth-secret', 'encryption-key'])
    assert.equal(mode(join(fresh.dataDir, file)), 0o600, file);
  const dir = join(root, 'old');
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'auth-secret'), 'an-old-auth-secret-1234');
  chmodSync(join(dir, 'auth-secret'), 0o644);
  const old = freshEnv({ DATABASE_PATH: join(dir, 'app.db') });
  assert.equal(old.AUTH_SECRET, 'an-old-auth-secret-1234');
  assert.equal(mode(dir), 0o700);
  assert.equal(mode(join(dir, 'auth-secret')), 0o600);
});

test('A10: ENCRYPTION_KEY is generated once into the data folder, or taken from the environment', () => {
  const first = freshEnv({ DATABASE_PATH: join(root, 'gen', 'app.db') });
  assert.match(first.ENCRYPTION_KEY, /^[0-9a-f]{64}$/);
  assert.equal(readFileSync(join(first.dataDir, 'encryption-key'), 'utf8'), first.ENCRYPTION_KEY);
  assert.equal(
    freshEnv({ DATABASE_PATH: join(root, 'gen', 'app.db') }).ENCRYPTION_KEY,
    first.ENCRYPTION_KEY,
    'the same key on the next start',
  );
  const given = 'AB'.repeat(32);
  assert.equal(
    freshEnv({ DATABASE_PATH: join(root, 'given', 'app.db'), ENCRYPTION_KEY: given }).ENCRYPTION_KEY,
    given.toLowerCase(),
  );
});

test('A10: an ENCRYPTION_KEY that is not 64 hex characters stops the start with an error naming it', () => {
  for (const bad of [
    'too-short',
    'z'.repeat(64),
    'a'.repeat(63),
    'a'.repeat(65),
    Buffer.alloc(32).toString('base64'),
  ]) {
    assert.throws(
      () => freshEnv({ DATABASE_PATH: join(root, 'bad', 'app.db'), ENCRYPTION_KEY: bad }),
      /Invalid environment: ENCRYPTION_KEY: must be 32 bytes written as 64 hex characters/,
      bad,
    );
  }
});
