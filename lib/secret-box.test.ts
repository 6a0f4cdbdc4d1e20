import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openSecret, sealSecret } from '@/lib/secret-box';

test('provider keys round-trip, are not stored in clear, and need the right app secret', () => {
  const sealed = sealSecret('sk-live-canary-123', 'app-secret-one');
  assert.ok(!sealed.includes('sk-live'));
  assert.notEqual(sealSecret('sk-live-canary-123', 'app-secret-one'), sealed, 'a fresh IV each time');
  assert.equal(openSecret(sealed, 'app-secret-one'), 'sk-live-canary-123');
  assert.equal(openSecret(sealed, 'another-secret'), null);
  const parts = sealed.split('.');
  parts[3] = Buffer.from('tampered').toString('base64url');
  assert.equal(openSecret(parts.join('.'), 'app-secret-one'), null);
});
