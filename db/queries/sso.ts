import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { settings } from '@/db/schema';
import { openValue, sealValue } from '@/db/sealing';
import type { SsoConfig } from '@/lib/sso';

/**
 * The single sign-on provider lives in the settings table under its own key (not one of the admin's
 * plain settings, so GET /api/admin/settings never carries it); the client secret is sealed with
 * ENCRYPTION_KEY (db/sealing.ts) like the model providers' API keys.
 */
const KEY = 'sso.provider';

const StoredSchema = z.object({
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  clientSecretSealed: z.string(),
  allowedDomains: z.array(z.string()),
  updatedAt: z.string(),
});

export type StoredSso = { config: SsoConfig | null; secretUnreadable: boolean };

/** The provider, or null; `secretUnreadable` when its secret cannot be opened with this key. */
export function getSsoProvider(db: Db): StoredSso | null {
  const row = db.select().from(settings).where(eq(settings.key, KEY)).get();
  const parsed = StoredSchema.safeParse(row?.value);
  if (!parsed.success) return null;
  const { clientSecretSealed, ...rest } = parsed.data;
  const secret = clientSecretSealed === '' ? '' : openValue(db, clientSecretSealed);
  if (secret === null) return { config: null, secretUnreadable: true };
  return { config: { ...rest, clientSecret: secret }, secretUnreadable: false };
}

/** The stored fields without the secret (for an admin whose stored secret cannot be decrypted). */
export function getSsoProviderPublic(db: Db): Omit<SsoConfig, 'clientSecret'> | null {
  const row = db.select().from(settings).where(eq(settings.key, KEY)).get();
  const parsed = StoredSchema.safeParse(row?.value);
  if (!parsed.success) return null;
  const { clientSecretSealed: _sealed, ...rest } = parsed.data;
  return rest;
}

export function saveSsoProvider(db: Db, config: Omit<SsoConfig, 'updatedAt'>): SsoConfig {
  const updatedAt = new Date().toISOString();
  const { clientSecret, ...rest } = config;
  const value = { ...rest, clientSecretSealed: clientSecret ? sealValue(db, clientSecret) : '', updatedAt };
  db.insert(settings)
    .values({ key: KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } })
    .run();
  return { ...config, updatedAt };
}

export function deleteSsoProvider(db: Db): void {
  db.delete(settings).where(eq(settings.key, KEY)).run();
}
