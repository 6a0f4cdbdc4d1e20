import 'server-only';
import type { Db } from '@/db/client';
import { processState } from '@/lib/process-state';
import { openLegacySecret, openSecret, sealSecret } from '@/lib/secret-box';

/** The keys a database handle seals and opens its secret columns with. */
export type DbSecrets = {
  /** ENCRYPTION_KEY, 32 bytes. */
  key: Buffer;
  /** AUTH_SECRET: only to open provider keys sealed in the old v1 format and reseal them. */
  legacyAppSecret?: string;
};

declare module '@/lib/process-state' {
  interface OwnedSlots {
    dbSecrets: WeakMap<Db, DbSecrets>;
  }
}

/**
 * Per handle rather than one key, so that tests can open several databases, each with its own key; one
 * per process like the handle itself (Next compiles instrumentation and routes as separate module graphs).
 */
const handleSecrets = () => processState('dbSecrets', () => new WeakMap());

export function attachSecrets(db: Db, secrets: DbSecrets): void {
  handleSecrets().set(db, secrets);
}

function secretsOf(db: Db): DbSecrets {
  const secrets = handleSecrets().get(db);
  if (!secrets) throw new Error('This database handle was opened without its encryption key.');
  return secrets;
}

export const sealValue = (db: Db, plain: string): string => sealSecret(plain, secretsOf(db).key);

/** The plain value, or null when it cannot be opened with this key (see reportUnreadable). */
export const openValue = (db: Db, sealed: string): string | null => openSecret(sealed, secretsOf(db).key);

export function openLegacyValue(db: Db, sealed: string): string | null {
  const { legacyAppSecret } = secretsOf(db);
  return legacyAppSecret ? openLegacySecret(sealed, legacyAppSecret) : null;
}

/** Logs once per process and owner that stored secrets cannot be decrypted (the key changed). */
export function reportUnreadable(owner: string, keys: string[]): void {
  const reported = processState('unreadableSecrets', () => new Set());
  const id = `${owner}: ${keys.join(', ')}`;
  if (reported.has(id)) return;
  reported.add(id);
  console.error(
    `[secrets] ${owner}: the stored ${keys.join(', ')} cannot be decrypted with this ENCRYPTION_KEY (was the key changed?). ` +
      'It stays unusable until an admin enters the value again.',
  );
}

/** What the admin sees for a server or provider whose stored secrets cannot be decrypted. */
export function unreadableMessage(keys: string[]): string {
  return `The stored ${keys.join(', ')} cannot be decrypted with this ENCRYPTION_KEY (was the key changed?). Enter the value again.`;
}
