import assert from 'node:assert/strict';
import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { isSealed, openLegacySecret, openSecret, sealSecret } from '@/lib/secret-box';

/** The v1 format as the app wrote it before ENCRYPTION_KEY (a key derived from AUTH_SECRET), rebuilt here. */
function sealV1(plain: string, appSecret: string): string {
  const key = Buffer.from(hkdfSync('sha256', appSecret, 'mcp-chat-host', 'provider-api-keys', 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    data.toString('base64url'),
  ].join('.');
}

test('A10: secrets round-trip under ENCRYPTION_KEY, are not stored in clear, and need the right key', () => {
  const key = randomBytes(32);
  const sealed = sealSecret('sk-live-canary-123', key);
  assert.ok(!sealed.includes('sk-live'));
  assert.ok(sealed.startsWith('v2.') && isSealed(sealed));
  assert.notEqual(sealSecret('sk-live-canary-123', key), sealed, 'a fresh IV each time');
  assert.equal(openSecret(sealed, key), 'sk-live-canary-123');
  assert.equal(openSecret(sealed, randomBytes(32)), null);
  const parts = sealed.split('.');
  parts[3] = Buffer.from('tampered').toString('base64url');
  assert.equal(openSecret(parts.join('.'), key), null);
  assert.equal(isSealed('Bearer plain-token'), false);
});

test('A10: old v1 provider keys open with the app secret they were sealed under, and only with it', () => {
  const v1 = sealV1('sk-old-canary', 'app-secret-one');
  assert.equal(openLegacySecret(v1, 'app-secret-one'), 'sk-old-canary');
  assert.equal(openLegacySecret(v1, 'another-secret'), null);
  assert.equal(isSealed(v1), false, 'v1 is not the current format');
  assert.equal(openSecret(v1, randomBytes(32)), null);
});
