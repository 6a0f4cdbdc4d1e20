import 'server-only';
import { eq } from 'drizzle-orm';
import * as z from '@/lib/zod';
import type { Db } from '@/db/client';
import { first } from '@/db/run';
import { settings } from '@/db/tables';
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
export async function getSsoProvider(db: Db): Promise<StoredSso | null> {
  const row = first(await db.select().from(settings).where(eq(settings.key, KEY)));
  const parsed = StoredSchema.safeParse(row?.value);
  if (!parsed.success) return null;
  const { clientSecretSealed, ...rest } = parsed.data;
  const secret = clientSecretSealed === '' ? '' : openValue(db, clientSecretSealed);
  if (secret === null) return { config: null, secretUnreadable: true };
  return { config: { ...rest, clientSecret: secret }, secretUnreadable: false };
}

/** The stored fields without the secret (for an admin whose stored secret cannot be decrypted). */
export async function getSsoProviderPublic(db: Db): Promise<Omit<SsoConfig, 'clientSecret'> | null> {
  const row = first(await db.select().from(settings).where(eq(settings.key, KEY)));
  const parsed = StoredSchema.safeParse(row?.value);
  if (!parsed.success) return null;
  const { clientSecretSealed: _sealed, ...rest } = parsed.data;
  return rest;
}

export async function saveSsoProvider(db: Db, config: Omit<SsoConfig, 'updatedAt'>): Promise<SsoConfig> {
  const updatedAt = new Date().toISOString();
  const { clientSecret, ...rest } = config;
  const value = { ...rest, clientSecretSealed: clientSecret ? sealValue(db, clientSecret) : '', updatedAt };
  await db
    .insert(settings)
    .values({ key: KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } });
  return { ...config, updatedAt };
}

export async function deleteSsoProvider(db: Db): Promise<void> {
  await db.delete(settings).where(eq(settings.key, KEY));
}
