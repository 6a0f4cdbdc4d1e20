import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenBuckets } from '@/lib/token-bucket';

test('token buckets: a burst, then refill at the steady rate; keys are independent; memory is capped', () => {
  const buckets = new TokenBuckets(3, 1, 100);
  const t0 = 1_000_000;
  for (let i = 0; i < 3; i++) assert.deepEqual(buckets.take('a', t0), { ok: true });
  assert.deepEqual(buckets.take('a', t0), { ok: false, retryAfterS: 1 });
  assert.deepEqual(buckets.take('b', t0), { ok: true });
  assert.deepEqual(buckets.take('a', t0 + 1000), { ok: true });
  assert.equal(buckets.take('a', t0 + 1000).ok, false);
  for (let i = 0; i < 500; i++) buckets.take(`ip-${i}`, t0 + 2000);
  assert.ok((buckets as unknown as { buckets: Map<string, unknown> }).buckets.size <= 101);
});
