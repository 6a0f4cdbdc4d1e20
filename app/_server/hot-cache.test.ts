import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CachedSession, cachedSession, dropCachedUser, invalidateSessions } from './hot-cache';

/** A session lookup that counts its calls and answers `found` (after `wait`, if given). */
function lookup(found: CachedSession | null, wait?: Promise<void>) {
  const calls = { n: 0 };
  const read = async () => {
    calls.n++;
    await wait;
    return found;
  };
  return { calls, read };
}
const headers = (cookie?: string) => new Headers(cookie ? { cookie } : {});
const alice = (): CachedSession => ({ userId: 'alice', expiresAt: Date.now() + 60_000 });

test('a session lookup is reused for the same Cookie header only, and only when a session was found', async () => {
  invalidateSessions();
  const found = lookup(alice());
  for (let i = 0; i < 3; i++)
    assert.equal((await cachedSession(headers('s=1'), found.read))?.userId, 'alice');
  assert.equal(found.calls.n, 1);
  await cachedSession(headers('s=1; theme=dark'), found.read);
  assert.equal(found.calls.n, 2, 'another Cookie header is looked up');
  const none = lookup(null);
  assert.equal(await cachedSession(headers('s=forged'), none.read), null);
  assert.equal(await cachedSession(headers('s=forged'), none.read), null);
  assert.equal(none.calls.n, 2, 'no session found is never kept');
  const anonymous = lookup(null);
  await cachedSession(headers(), anonymous.read);
  await cachedSession(headers(), anonymous.read);
  assert.equal(anonymous.calls.n, 2);
});

test('an ended session is looked up again: invalidated, changed user, or past its expiry', async () => {
  invalidateSessions();
  const found = lookup(alice());
  await cachedSession(headers('s=2'), found.read);
  invalidateSessions();
  await cachedSession(headers('s=2'), found.read);
  assert.equal(found.calls.n, 2, 'after a sign-out anywhere');
  dropCachedUser('bob');
  await cachedSession(headers('s=2'), found.read);
  assert.equal(found.calls.n, 3, 'after a user changed (re-enabled, deleted)');
  const short = lookup({ userId: 'alice', expiresAt: Date.now() + 30 });
  await cachedSession(headers('s=3'), short.read);
  await new Promise((resolve) => setTimeout(resolve, 40));
  await cachedSession(headers('s=3'), short.read);
  assert.equal(short.calls.n, 2, 'an expired session is never reused');
});

test('a lookup in flight when a session ends is not kept', async () => {
  invalidateSessions();
  let finish!: () => void;
  const slow = lookup(
    alice(),
    new Promise<void>((resolve) => {
      finish = resolve;
    }),
  );
  const pending = cachedSession(headers('s=4'), slow.read);
  invalidateSessions();
  finish();
  assert.equal((await pending)?.userId, 'alice');
  await cachedSession(headers('s=4'), slow.read);
  assert.equal(slow.calls.n, 2);
});
