import 'server-only';
import { and, eq } from 'drizzle-orm';
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

/**
 * Stores the provider. With `ifVersion` (the updatedAt the admin's form was opened at) the write happens
 * only while the stored provider is still that version: null (nothing written) when another save came
 * first, so a stale form cannot put back the values another admin just saved.
 */
export async function saveSsoProvider(
  db: Db,
  config: Omit<SsoConfig, 'updatedAt'>,
  ifVersion: Date | null = null,
): Promise<SsoConfig | null> {
  const { clientSecret, ...rest } = config;
  const sealed = clientSecret ? sealValue(db, clientSecret) : '';
  if (ifVersion) {
    const row = first(await db.select().from(settings).where(eq(settings.key, KEY)));
    const parsed = StoredSchema.safeParse(row?.value);
    if (!row || !parsed.success || new Date(parsed.data.updatedAt).getTime() !== ifVersion.getTime())
      return null;
    // Always later than the version it replaces, so two saves in one millisecond still differ.
    const at = new Date(Math.max(Date.now(), ifVersion.getTime() + 1)).toISOString();
    const value = { ...rest, clientSecretSealed: sealed, updatedAt: at };
    // Conditional on the whole stored value (it carries the version): of two saves at once, one wins.
    const written = await db
      .update(settings)
      .set({ value })
      .where(and(eq(settings.key, KEY), eq(settings.value, row.value)))
      .returning();
    return written.length > 0 ? { ...config, updatedAt: at } : null;
  }
  const updatedAt = new Date().toISOString();
  const value = { ...rest, clientSecretSealed: sealed, updatedAt };
  await db
    .insert(settings)
    .values({ key: KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } });
  return { ...config, updatedAt };
}

export async function deleteSsoProvider(db: Db): Promise<void> {
  await db.delete(settings).where(eq(settings.key, KEY));
}
