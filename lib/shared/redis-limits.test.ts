import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKOFF_DEFAULTS } from '@/lib/login-backoff';
import {
  RedisConcurrencyGate,
  RedisLoginBackoff,
  RedisTokenBuckets,
  RedisWindowLimiter,
} from '@/lib/shared/redis-limits';
import { eventually, startRedisForFile } from '@/lib/shared/test-redis';

const redis = startRedisForFile();

test('a request window holds across two instances: what A took counts on B', async () => {
  const a = new RedisWindowLimiter(redis.connections(), 'chat', 3, 60_000);
  const b = new RedisWindowLimiter(redis.connections(), 'chat', 3, 60_000);
  const t0 = 1_000_000;
  assert.deepEqual(await a.take('u', t0), { ok: true });
  assert.deepEqual(await b.take('u', t0 + 1), { ok: true });
  assert.deepEqual(await a.take('u', t0 + 2), { ok: true });
  assert.deepEqual(await b.take('u', t0 + 10), { ok: false, retryAfterS: 60 });
  assert.deepEqual(await a.take('u', t0 + 30_000), { ok: false, retryAfterS: 30 });
  assert.deepEqual(await b.take('other', t0 + 10), { ok: true }, 'keys are independent');
  const elsewhere = new RedisWindowLimiter(redis.connections(), 'import', 3, 60_000);
  assert.deepEqual(await elsewhere.take('u', t0 + 10), { ok: true }, 'so are limits of other names');
  assert.deepEqual(await b.take('u', t0 + 60_001), { ok: true }, 'the oldest left the window');
});

test('a concurrency gate counts the slots of every instance and frees a released one', async () => {
  const a = new RedisConcurrencyGate(redis.connections(), 'turns');
  const b = new RedisConcurrencyGate(redis.connections(), 'turns');
  const first = await a.acquire('u', 2);
  const second = await b.acquire('u', 2);
  assert.ok(first && second);
  assert.equal(await a.acquire('u', 2), null);
  assert.equal(await b.acquire('u', 2), null);
  assert.ok(await b.acquire('v', 1), 'keys are independent');
  first();
  first(); // releasing twice frees one slot only
  await eventually(async () => (await redis.connections().command.zcard('mcpchat:gate:turns:u')) === 1);
  const third = await b.acquire('u', 2);
  assert.ok(third);
  assert.equal(await a.acquire('u', 2), null);
  second();
  third();
});

test("a dead instance's slot frees itself; a live one's is renewed", async () => {
  const connections = redis.connections();
  const options = { slotTtlMs: 300, renewMs: 100 };
  const a = new RedisConcurrencyGate(connections, 'turns', options);
  const b = new RedisConcurrencyGate(redis.connections(), 'turns', options);
  assert.ok(await a.acquire('w', 1));
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(await b.acquire('w', 1), null, 'still held: A renews it');
  await connections.close(); // A dies holding the slot
  const taken: (() => void)[] = [];
  await eventually(async () => {
    const release = await b.acquire('w', 1);
    if (release) taken.push(release);
    return release !== null;
  });
  for (const release of taken) release();
});

test('token buckets hold across two instances: a burst, then the refill rate', async () => {
  const a = new RedisTokenBuckets(redis.connections(), 'share', 3, 1);
  const b = new RedisTokenBuckets(redis.connections(), 'share', 3, 1);
  const t0 = 5_000_000;
  assert.deepEqual(await a.take('ip', t0), { ok: true });
  assert.deepEqual(await b.take('ip', t0), { ok: true });
  assert.deepEqual(await a.take('ip', t0), { ok: true });
  assert.deepEqual(await b.take('ip', t0), { ok: false, retryAfterS: 1 });
  assert.deepEqual(await a.take('ip', t0 + 500), { ok: false, retryAfterS: 1 });
  assert.deepEqual(await b.take('other', t0), { ok: true });
  assert.deepEqual(await b.take('ip', t0 + 1000), { ok: true }, 'one token refilled');
  assert.deepEqual(await a.take('ip', t0 + 1000), { ok: false, retryAfterS: 1 });
});

test('sign-in back-off counts failures from every instance; the owner’s known address is exempt', async () => {
  const options = { ...BACKOFF_DEFAULTS, freeFailures: 2, maxWaitMs: 8_000, forgetMs: 60_000 };
  const a = new RedisLoginBackoff(redis.connections(), options);
  const b = new RedisLoginBackoff(redis.connections(), options);
  const t0 = 10_000_000;
  await b.success('ann@example.com', '192.0.2.9', t0);
  await a.failure('ann@example.com', t0);
  await b.failure('ann@example.com', t0);
  assert.deepEqual(await a.check('ann@example.com', '198.51.100.1', t0), { ok: false, retryAfterS: 1 });
  await a.failure('ann@example.com', t0 + 1000);
  assert.deepEqual(await b.check('ann@example.com', '198.51.100.1', t0 + 1000), {
    ok: false,
    retryAfterS: 2,
  });
  assert.deepEqual(await b.check('ann@example.com', '192.0.2.9', t0 + 1000), { ok: true }, 'known address');
  assert.deepEqual(await b.check('bob@example.com', '198.51.100.1', t0 + 1000), { ok: true });
  assert.deepEqual(await a.check('ann@example.com', '198.51.100.1', t0 + 3000), { ok: true }, 'waited');
  for (let i = 0; i < 10; i++) await a.failure('ann@example.com', t0 + 4000);
  assert.deepEqual(await b.check('ann@example.com', '198.51.100.1', t0 + 4000), {
    ok: false,
    retryAfterS: 8,
  });
  assert.deepEqual(
    await b.check('ann@example.com', '198.51.100.1', t0 + 4000 + 60_001),
    { ok: true },
    'forgotten after forgetMs without failures',
  );
  await a.success('ann@example.com', '198.51.100.1', t0 + 5000);
  assert.deepEqual(
    await b.check('ann@example.com', '203.0.113.5', t0 + 5000),
    { ok: true },
    'a success resets',
  );
});
