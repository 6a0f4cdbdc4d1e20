import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConcurrencyGate, WindowLimiter } from '@/lib/rate-limit';

test('the window limiter refuses past the limit, says when to retry, and lets requests through again', () => {
  const limiter = new WindowLimiter(3, 60_000);
  const t0 = 1_000_000;
  for (let i = 0; i < 3; i++) assert.deepEqual(limiter.take('u', t0 + i), { ok: true });
  const refused = limiter.take('u', t0 + 10);
  assert.equal(refused.ok, false);
  assert.ok(!refused.ok && refused.retryAfterS === 60);
  assert.deepEqual(limiter.take('other', t0 + 10), { ok: true }, 'keys are independent');
  assert.deepEqual(limiter.take('u', t0 + 60_001), { ok: true });
});

test('the concurrency gate counts per key and releases once', () => {
  const gate = new ConcurrencyGate();
  const a = gate.acquire('u', 2);
  const b = gate.acquire('u', 2);
  assert.ok(a && b);
  assert.equal(gate.acquire('u', 2), null);
  a();
  a();
  const c = gate.acquire('u', 2);
  assert.ok(c);
  assert.equal(gate.acquire('u', 2), null, 'a double release does not free two slots');
});
