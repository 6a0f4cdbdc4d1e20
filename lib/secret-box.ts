import 'server-only';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets stored in the database (provider API keys, MCP env and header values) are sealed with
 * AES-256-GCM under ENCRYPTION_KEY, so a copy of the database alone does not reveal them.
 * Format: `v2.<iv>.<tag>.<ciphertext>` (base64url), a fresh 96-bit IV each time.
 * `v1` was the first format, for provider keys only, under a key derived from AUTH_SECRET: it is
 * only ever opened, to reseal it as v2 when the database opens.
 */
const SEALED_V2 = /^v2\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/;

/** Whether a stored value is in the current sealed format (whatever key sealed it). */
export function isSealed(value: string): boolean {
  return SEALED_V2.test(value);
}

function seal(version: string, key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    version,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    data.toString('base64url'),
  ].join('.');
}

function open(version: string, key: Buffer, sealed: string): string | null {
  const [prefix, iv, tag, data, extra] = sealed.split('.');
  if (prefix !== version || !iv || !tag || data === undefined || extra !== undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}

/** Seals under ENCRYPTION_KEY (32 bytes). */
export function sealSecret(plain: string, key: Buffer): string {
  return seal('v2', key, plain);
}

/** The plain secret, or null when it was sealed under another key, was tampered with, or is not v2. */
export function openSecret(sealed: string, key: Buffer): string | null {
  return open('v2', key, sealed);
}

/** Opens a v1 value (key derived from AUTH_SECRET), or null. */
export function openLegacySecret(sealed: string, appSecret: string): string | null {
  return open(
    'v1',
    Buffer.from(hkdfSync('sha256', appSecret, 'mcp-chat-host', 'provider-api-keys', 32)),
    sealed,
  );
}
