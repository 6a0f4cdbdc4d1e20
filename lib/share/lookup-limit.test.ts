import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SOCKET_ADDRESS_HEADER } from '@/lib/net/client-address';
import { SHARE_LOOKUP_BURST, takeShareLookup } from '@/lib/share/lookup-limit';

test('S13: share lookups are limited per client address: a burst, then one a second', async () => {
  const from = (ip: string) =>
    new Headers({
      [SOCKET_ADDRESS_HEADER]: ip,
      'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250)}`,
    });
  const t0 = 5_000_000;
  for (let i = 0; i < SHARE_LOOKUP_BURST; i++)
    assert.equal((await takeShareLookup(from('192.0.2.1'), t0)).ok, true);
  assert.deepEqual(
    await takeShareLookup(from('192.0.2.1'), t0),
    { ok: false, retryAfterS: 1 },
    'a forged X-Forwarded-For does not reset the budget',
  );
  assert.equal((await takeShareLookup(from('192.0.2.2'), t0)).ok, true, 'another address is not affected');
  assert.equal((await takeShareLookup(from('192.0.2.1'), t0 + 1000)).ok, true);
});
