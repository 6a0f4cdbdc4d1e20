import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientIp, SHARE_LOOKUP_BURST, takeShareLookup } from '@/lib/share/lookup-limit';

test('S13: share lookups are limited per client address: a burst, then one a second', () => {
  const from = (ip: string) => new Headers({ 'x-forwarded-for': ip });
  assert.equal(clientIp(from('10.0.0.1, 192.0.2.9')), '192.0.2.9', 'the entry our proxy added');
  assert.equal(clientIp(new Headers()), 'unknown');
  const t0 = 5_000_000;
  for (let i = 0; i < SHARE_LOOKUP_BURST; i++) assert.equal(takeShareLookup(from('192.0.2.1'), t0).ok, true);
  assert.deepEqual(takeShareLookup(from('192.0.2.1'), t0), { ok: false, retryAfterS: 1 });
  assert.equal(takeShareLookup(from('192.0.2.2'), t0).ok, true, 'another address is not affected');
  assert.equal(takeShareLookup(from('192.0.2.1'), t0 + 1000).ok, true);
});
