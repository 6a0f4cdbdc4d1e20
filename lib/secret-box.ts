import 'server-only';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts secrets stored in the database (provider API keys) with AES-256-GCM under a key derived
 * from the app secret, so a copy of the database alone does not reveal them.
 * Format: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
function key(appSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, 'mcp-chat-host', 'provider-api-keys', 32));
}

export function sealSecret(plain: string, appSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(appSecret), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

/** The plain secret, or null when the value was sealed under another app secret or was tampered with. */
export function openSecret(sealed: string, appSecret: string): string | null {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key(appSecret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
