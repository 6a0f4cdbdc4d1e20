import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Bus } from '@/lib/shared/bus';
import { RedisConnections } from '@/lib/shared/redis';
import { BusRequests } from '@/lib/shared/bus-requests';
import { startRedisForFile } from '@/lib/shared/test-redis';

const redis = startRedisForFile();

/** One instance holding `held` (key → value): it answers questions about those, and only those. */
function instance(name: string, held: Record<string, string>, waitMs = 300, channel = 'test-questions') {
  const asked: string[] = [];
  const requests = new BusRequests<{ key: string }, { value: string; by: string }>(
    new Bus(redis.connections(), name),
    channel,
    async ({ key }) => {
      asked.push(key);
      return key in held ? { value: held[key] as string, by: name } : null;
    },
    waitMs,
  );
  return { requests, asked };
}

test('a question reaches the instance that holds the answer; the others stay silent', async () => {
  const a = instance('a', { x: 'from a' });
  const b = instance('b', {});
  const c = instance('c', { y: 'from c' });
  await Promise.all([a.requests.start(), b.requests.start(), c.requests.start()]);
  const [x, y] = await Promise.all([b.requests.ask({ key: 'x' }), b.requests.ask({ key: 'y' })]);
  assert.deepEqual(x, { value: 'from a', by: 'a' });
  assert.deepEqual(y, { value: 'from c', by: 'c' });
  assert.deepEqual(b.asked, [], 'an instance is never asked its own question');
  assert.deepEqual(a.asked.sort(), ['x', 'y']);
});

test('nobody holds it: null once the wait is over', async () => {
  const a = instance('a', {});
  const b = instance('b', {}, 150);
  await a.requests.start();
  const startedAt = Date.now();
  assert.equal(await b.requests.ask({ key: 'nothing' }), null);
  assert.ok(Date.now() - startedAt >= 140);
  assert.deepEqual(a.asked, ['nothing']);
});

test('gather: every instance that holds something replies once; the asker has them all after the window', async () => {
  // Keys no earlier test's instances (still listening) hold.
  const a = instance('a', { g: 'from a' });
  const b = instance('b', {});
  const c = instance('c', { g: 'from c' });
  await Promise.all([a.requests.start(), c.requests.start()]);
  const replies = await b.requests.gather({ key: 'g' }, 300);
  assert.deepEqual(replies.map((r) => r.value).sort(), ['from a', 'from c']);
  assert.deepEqual(await b.requests.gather({ key: 'nothing' }, 100), []);
});

test('gather ends as soon as every other instance listening when it asked has replied, else at the window', {
  timeout: 30_000,
}, async () => {
  // A channel of their own: the instances of earlier tests are not asked.
  const a = instance('a', { k: 'from a' }, 300, 'gather-all');
  const b = instance('b', {}, 300, 'gather-all');
  const c = instance('c', { k: 'from c' }, 300, 'gather-all');
  await Promise.all([a.requests.start(), c.requests.start()]);
  // A window of ten minutes: it ends because both others replied (else the test times out).
  const replies = await b.requests.gather({ key: 'k' }, 600_000);
  assert.deepEqual(replies.map((r) => r.value).sort(), ['from a', 'from c']);
  // Nobody holds this key, so not everyone replies: the whole window is waited for.
  const startedAt = performance.now();
  assert.deepEqual(
    (await b.requests.gather({ key: 'held-by-none' }, 400)).map((r) => r.value),
    [],
  );
  assert.ok(performance.now() - startedAt >= 390);
});

test('gather with Redis unreachable: no replies (the caller shows its own), not a failure', async () => {
  // Nothing listens on port 1: the subscription and the publish fail after the connection's retries.
  const connections = new RedisConnections('redis://127.0.0.1:1');
  const requests = new BusRequests<{ key: string }, string>(new Bus(connections, 'alone'), 'down', () => 'x');
  try {
    assert.deepEqual(await requests.gather({ key: 'k' }, 100), []);
  } finally {
    await connections.close();
  }
});
