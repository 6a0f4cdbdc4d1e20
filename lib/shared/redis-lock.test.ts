import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { redisKey } from '@/lib/shared/redis';
import { redisLock } from '@/lib/shared/redis-lock';
import { startRedisForFile } from '@/lib/shared/test-redis';

const redis = startRedisForFile();

/** What each run did, in order: `start name` / `end name`. */
function recorder() {
  const log: string[] = [];
  const run = (name: string, ms: number) => async () => {
    log.push(`start ${name}`);
    await sleep(ms);
    log.push(`end ${name}`);
    return name;
  };
  return { log, run };
}

test('two instances under one key run one after the other; other keys do not wait', async () => {
  const a = redisLock(redis.connections(), 'work', { pollMs: 10 });
  const b = redisLock(redis.connections(), 'work', { pollMs: 10 });
  const { log, run } = recorder();
  // A holds the lock first (its work has started), then B asks for the same key and for another.
  const first = a('user-1', run('a1', 80));
  while (!log.includes('start a1')) await sleep(5);
  const results = await Promise.all([first, b('user-1', run('b1', 10)), b('user-2', run('b2', 10))]);
  assert.deepEqual(results, ['a1', 'b1', 'b2']);
  const after = (x: string, y: string) => log.indexOf(x) > log.indexOf(y);
  assert.ok(after('start b1', 'end a1'), `b1 waited for a1: ${log.join(', ')}`);
  assert.ok(after('end a1', 'end b2'), `b2 did not wait: ${log.join(', ')}`);
});

test('an error inside releases the lock; a holder that died frees it when its time runs out', async () => {
  const conns = redis.connections();
  const a = redisLock(conns, 'work', { pollMs: 10 });
  await assert.rejects(
    a('k', async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(await a('k', async () => 'next'), 'next');
  // A holder that died: its lock stays until its time to live ends.
  const key = redisKey('lock', 'work', createHash('sha256').update('dead').digest('hex'));
  await conns.command.set(key, 'someone-dead', 'PX', 150);
  const startedAt = Date.now();
  await a('dead', async () => {});
  assert.ok(Date.now() - startedAt >= 100, 'waited for the dead holder’s lock to expire');
});

test('a lock that expired and was taken by another is not released by its first holder', async () => {
  const conns = redis.connections();
  const slow = redisLock(conns, 'work', { ttlMs: 50, pollMs: 10 });
  const other = redisLock(redis.connections(), 'work', { ttlMs: 5_000, pollMs: 10 });
  const key = redisKey('lock', 'work', createHash('sha256').update('long').digest('hex'));
  let otherHolds!: () => void;
  const holding = new Promise<void>((resolve) => (otherHolds = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const first = slow('long', async () => {
    await sleep(100); // past its time to live: the other takes the lock meanwhile
  });
  await sleep(5);
  const second = other('long', async () => {
    otherHolds();
    await released;
  });
  await holding;
  await first;
  assert.ok(await conns.command.get(key), 'the other instance still holds the lock');
  release();
  await second;
  assert.equal(await conns.command.get(key), null);
});

test('without Redis the work still runs', async () => {
  const { RedisConnections } = await import('@/lib/shared/redis');
  const gone = new RedisConnections('redis://127.0.0.1:1');
  try {
    const lock = redisLock(gone, 'work');
    assert.equal(await lock('k', async () => 'ran'), 'ran');
  } finally {
    await gone.close();
  }
});
