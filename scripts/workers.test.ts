import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  hasSharedStore,
  RESTART_BASE_MS,
  RESTART_MAX_MS,
  restartDelay,
  STABLE_AFTER_MS,
  workerCount,
  workerOptions,
} from './workers.mjs';

const SHARED = { DATABASE_URL: 'postgres://chat:pw@db:5432/chat', REDIS_URL: 'redis://redis:6379' };

test('a shared store is Postgres in DATABASE_URL and a REDIS_URL, both', () => {
  assert.equal(hasSharedStore(SHARED), true);
  assert.equal(hasSharedStore({ ...SHARED, DATABASE_URL: 'postgresql://db/chat' }), true);
  assert.equal(hasSharedStore({ DATABASE_URL: SHARED.DATABASE_URL }), false);
  assert.equal(hasSharedStore({ REDIS_URL: SHARED.REDIS_URL }), false);
  assert.equal(hasSharedStore({ ...SHARED, REDIS_URL: ' ' }), false);
  assert.equal(hasSharedStore({ ...SHARED, DATABASE_URL: 'file:./data/app.db' }), false);
  assert.equal(hasSharedStore({}), false);
});

test('with a shared store: one worker per core, WEB_CONCURRENCY overrides (1 = one process)', () => {
  assert.equal(workerCount(SHARED, 8).count, 8);
  assert.equal(workerCount(SHARED, 1).count, 1);
  assert.equal(workerCount({ ...SHARED, WEB_CONCURRENCY: '3' }, 8).count, 3);
  assert.equal(workerCount({ ...SHARED, WEB_CONCURRENCY: '1' }, 8).count, 1);
  assert.equal(workerCount({ ...SHARED, WEB_CONCURRENCY: '16' }, 2).count, 16);
  assert.equal(workerCount({ ...SHARED, WEB_CONCURRENCY: '' }, 4).count, 4);
});

test('on SQLite alone: one process, even when WEB_CONCURRENCY asks for more (with a note why)', () => {
  const plain = workerCount({}, 8);
  assert.equal(plain.count, 1);
  assert.equal(plain.note, undefined);
  const asked = workerCount({ WEB_CONCURRENCY: '4' }, 8);
  assert.equal(asked.count, 1);
  assert.match(asked.note ?? '', /WEB_CONCURRENCY=4 needs DATABASE_URL=postgres/);
  assert.equal(workerCount({ WEB_CONCURRENCY: '4', REDIS_URL: SHARED.REDIS_URL }, 8).count, 1);
  assert.equal(workerCount({ WEB_CONCURRENCY: '1' }, 8).note, undefined);
});

test('a WEB_CONCURRENCY that is not a whole number from 1 to 256 stops the start with the rule', () => {
  for (const bad of ['0', '-2', '2.5', 'four', '257', '1e2'])
    assert.throws(
      () => workerCount({ ...SHARED, WEB_CONCURRENCY: bad }, 4),
      /WEB_CONCURRENCY: must be a whole number from 1 to 256/,
      bad,
    );
});

test('a crashed worker starts again after a doubling back-off, capped, reset after a stable run', () => {
  assert.deepEqual(restartDelay(0, 10), { delayMs: RESTART_BASE_MS, crashes: 1 });
  assert.deepEqual(restartDelay(1, 10), { delayMs: RESTART_BASE_MS * 2, crashes: 2 });
  assert.deepEqual(restartDelay(2, 10), { delayMs: RESTART_BASE_MS * 4, crashes: 3 });
  assert.equal(restartDelay(20, 10).delayMs, RESTART_MAX_MS);
  assert.deepEqual(restartDelay(20, STABLE_AFTER_MS), { delayMs: RESTART_BASE_MS, crashes: 1 });
});

test("with workers, npm start applies next start's -p, -H and --keepAliveTimeout, and refuses any other option", () => {
  assert.deepEqual(workerOptions([]), {});
  assert.deepEqual(workerOptions(['-p', '4000', '-H', '127.0.0.1', '--keepAliveTimeout', '70000']), {
    port: '4000',
    hostname: '127.0.0.1',
    keepAliveTimeout: '70000',
  });
  assert.deepEqual(workerOptions(['--port=4001', '--hostname=::1']), { port: '4001', hostname: '::1' });
  // Before, anything but -H was passed over without a word: the workers listened on PORT regardless.
  assert.throws(
    () => workerOptions(['--inspect']),
    /takes -p\/--port, -H\/--hostname and --keepAliveTimeout only \(got "--inspect"\).*WEB_CONCURRENCY=1/,
  );
  assert.throws(() => workerOptions(['./elsewhere']), /got "\.\/elsewhere"/);
  assert.throws(() => workerOptions(['-p']), /-p needs a value/);
  assert.throws(() => workerOptions(['--port=']), /--port needs a value/);
  assert.throws(() => workerOptions(['-p', 'http']), /must be a whole number \(got "http"\)/);
  assert.throws(() => workerOptions(['--keepAliveTimeout', '5s']), /must be a whole number/);
});
