import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoginBackoff } from '@/lib/login-backoff';

test('A7: after 5 wrong passwords from any addresses, the account waits 1 s, 2 s, 4 s … at most 60 s', () => {
  const b = new LoginBackoff();
  const t0 = 1_000_000;
  for (let i = 0; i < 5; i++) {
    assert.equal(b.check('ann@example.com', `192.0.2.${i}`, t0).ok, true);
    b.failure('ann@example.com', t0);
  }
  assert.deepEqual(
    b.check('ann@example.com', '198.51.100.1', t0),
    { ok: false, retryAfterS: 1 },
    'a new address does not escape it',
  );
  assert.equal(b.check('ann@example.com', '198.51.100.1', t0 + 1000).ok, true);
  b.failure('ann@example.com', t0 + 1000);
  assert.deepEqual(b.check('ann@example.com', '198.51.100.1', t0 + 1000), { ok: false, retryAfterS: 2 });
  let now = t0 + 1000;
  for (let i = 0; i < 20; i++) {
    now += 60_000;
    b.failure('ann@example.com', now);
  }
  assert.deepEqual(
    b.check('ann@example.com', '198.51.100.1', now),
    { ok: false, retryAfterS: 60 },
    'never more than a minute',
  );
  assert.equal(
    b.check('ann@example.com', '198.51.100.1', now + 60_000).ok,
    true,
    'the owner can always try again within a minute',
  );
  assert.equal(b.check('bob@example.com', '198.51.100.1', now).ok, true, 'other accounts are not affected');
});

test('A7: an address that signed in to the account before is not slowed by others guessing', () => {
  const b = new LoginBackoff();
  b.success('ann@example.com', '192.0.2.10', 0);
  for (let i = 0; i < 30; i++) b.failure('ann@example.com', 1000);
  assert.equal(b.check('ann@example.com', '203.0.113.9', 1000).ok, false);
  assert.equal(b.check('ann@example.com', '192.0.2.10', 1000).ok, true);
});

test('A7: failures are forgotten after 15 minutes, and a success starts the count over', () => {
  const b = new LoginBackoff();
  for (let i = 0; i < 10; i++) b.failure('ann@example.com', 0);
  assert.equal(b.check('ann@example.com', 'x', 1000).ok, false);
  assert.equal(b.check('ann@example.com', 'x', 15 * 60_000 + 1).ok, true);
  for (let i = 0; i < 10; i++) b.failure('cat@example.com', 0);
  b.success('cat@example.com', 'y', 0);
  assert.equal(b.check('cat@example.com', 'z', 0).ok, true);
});

test('A7: memory is bounded: the oldest accounts are dropped past the cap', () => {
  const b = new LoginBackoff({ maxAccounts: 100 });
  for (let i = 0; i < 1000; i++) for (let j = 0; j < 10; j++) b.failure(`u${i}@example.com`, 0);
  assert.equal(b.check('u0@example.com', 'x', 0).ok, true);
  assert.equal(b.check('u999@example.com', 'x', 0).ok, false);
});
