import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from '@/db/client';
import { getEnv } from '@/lib/env';
import { resetProcessState } from '@/lib/process-state';

const root = mkdtempSync(join(tmpdir(), 'data-files-'));
const saved = { ...process.env };
const mode = (path: string) => statSync(path).mode & 0o777;
const FILES = ['app.db', 'app.db-wal', 'app.db-shm'];

/** What the app does at start: parse the environment (data folder), then open the database. */
function start(databasePath: string) {
  resetProcessState();
  process.env.DATABASE_PATH = databasePath;
  const env = getEnv();
  return { env, handle: openDatabase(env.DATABASE_PATH, { key: Buffer.from(env.ENCRYPTION_KEY, 'hex') }) };
}

after(() => {
  resetProcessState();
  process.env = { ...saved };
  rmSync(root, { recursive: true, force: true });
});

test('A10: a new data folder is 0700 and the database file and its WAL files 0600', () => {
  const { env, handle } = start(join(root, 'fresh', 'data', 'app.db'));
  handle.sqlite.prepare('create table t (x)').run();
  assert.equal(mode(env.dataDir), 0o700);
  for (const file of FILES) assert.equal(mode(join(env.dataDir, file)), 0o600, file);
  handle.sqlite.close();
});

test('A10: an existing world-readable data folder and database are narrowed to 0700 and 0600 at start', () => {
  const dir = join(root, 'old');
  mkdirSync(dir);
  // An install from before: the database open (so its WAL files exist) and everything readable by all.
  const before = new Database(join(dir, 'app.db'));
  before.pragma('journal_mode = WAL');
  before.prepare('create table t (x)').run();
  chmodSync(dir, 0o755);
  for (const file of FILES) chmodSync(join(dir, file), 0o644);

  const { env, handle } = start(join(dir, 'app.db'));
  assert.equal(mode(env.dataDir), 0o700);
  for (const file of FILES) assert.equal(mode(join(dir, file)), 0o600, file);
  handle.sqlite.close();
  before.close();
});
