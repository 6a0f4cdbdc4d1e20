import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCheckpointer, DEFAULT_AUTOCHECKPOINT_PAGES, SAFETY_NET_PAGES } from '@/db/checkpointer';
import { openDatabase, type SqliteHandle } from '@/db/client';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const autocheckpoint = (handle: SqliteHandle) => handle.sqlite.pragma('wal_autocheckpoint', { simple: true });

/** Writes `pages` rows of ~one page each, letting the event loop (and the worker's messages) run between batches. */
async function writePages(handle: SqliteHandle, pages: number, pauseMs = 2) {
  handle.sqlite.exec('CREATE TABLE IF NOT EXISTS filler (x BLOB)');
  const blob = Buffer.alloc(3500, 7);
  for (let i = 0; i < pages; i++) {
    handle.sqlite.prepare('INSERT INTO filler (x) VALUES (?)').run(blob);
    if (i % 50 === 49) await sleep(pauseMs);
  }
}

async function until(check: () => boolean, what: string, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

test("a server database's writes are checkpointed by the worker; its own threshold is only a safety net", async () => {
  const handle = openDatabase(join(dir, 'server.db'), undefined, { checkpointer: true });
  const checkpointer = handle.checkpointer;
  assert.ok(checkpointer);
  // Opening and migrating does not start the thread: an idle server keeps none.
  assert.equal(checkpointer.stats().running, false);
  assert.equal(autocheckpoint(handle), DEFAULT_AUTOCHECKPOINT_PAGES);

  // ~3 log pages per insert (its own transaction), at about the pace of a busy server's turns.
  await writePages(handle, 1500, 20);
  assert.equal(checkpointer.stats().running, true, 'the first write started the worker');
  assert.equal(autocheckpoint(handle), SAFETY_NET_PAGES);
  await until(() => checkpointer.stats().pages >= 1500, 'the worker to copy the written pages');
  assert.equal(checkpointer.stats().starts, 1);
  // The log is restarted from its beginning once copied back, so it stays far below the ~18 MB written
  // (with only the safety net, it would hold them all).
  const walBytes = statSync(join(dir, 'server.db-wal')).size;
  assert.ok(walBytes < 6_000_000, `the WAL is reused (${walBytes} bytes)`);
  assert.deepEqual(handle.sqlite.prepare('SELECT count(*) AS n FROM filler').get(), { n: 1500 });

  await handle.close();
  assert.equal(checkpointer.stats().running, false);
});

test('the worker ends when nothing is written, and the next write starts it again', async () => {
  const handle = openDatabase(join(dir, 'idle.db'));
  const checkpointer = createCheckpointer(
    join(dir, 'idle.db'),
    (pages) => handle.sqlite.pragma(`wal_autocheckpoint = ${pages}`),
    { idleExitMs: 200 },
  );
  checkpointer.wake();
  await writePages(handle, 100);
  await until(() => !checkpointer.stats().running, 'the idle worker to end');
  assert.equal(autocheckpoint(handle), DEFAULT_AUTOCHECKPOINT_PAGES, 'the main connection checkpoints again');

  checkpointer.wake();
  assert.equal(checkpointer.stats().running, true);
  assert.equal(checkpointer.stats().starts, 2);
  assert.equal(autocheckpoint(handle), SAFETY_NET_PAGES);
  await checkpointer.stop();
  checkpointer.wake();
  assert.equal(checkpointer.stats().running, false, 'a stopped checkpointer is not started again');
  await handle.close();
});

test('a worker that cannot open the database leaves checkpoints to the main connection, said once', async () => {
  const handle = openDatabase(join(dir, 'main.db'));
  const errors: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args.join(' '));
  try {
    const checkpointer = createCheckpointer(join(dir, 'missing.db'), (pages) =>
      handle.sqlite.pragma(`wal_autocheckpoint = ${pages}`),
    );
    checkpointer.wake();
    await until(() => !checkpointer.stats().running, 'the failed worker to end');
    assert.equal(autocheckpoint(handle), DEFAULT_AUTOCHECKPOINT_PAGES);
    checkpointer.wake();
    checkpointer.wake();
    assert.equal(checkpointer.stats().starts, 1, 'a failed worker is not started at every write');
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0] ?? '', /checkpointer stopped.*main connection checkpoints again/);
  } finally {
    console.error = original;
  }
  await handle.close();
});

test('scratch databases (tests, scripts) get no checkpointer', () => {
  const handle = openDatabase(join(dir, 'scratch.db'));
  assert.equal(handle.checkpointer, undefined);
  handle.sqlite.exec('CREATE TABLE t (x)');
  handle.sqlite.prepare('INSERT INTO t VALUES (1)').run();
  assert.equal(autocheckpoint(handle), DEFAULT_AUTOCHECKPOINT_PAGES);
  handle.sqlite.close();
});
