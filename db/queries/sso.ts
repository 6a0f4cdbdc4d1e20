import 'server-only';
import { and, eq } from 'drizzle-orm';
import * as z from '@/lib/zod';
import type { Db } from '@/db/client';
import { first, nextUpdatedAt } from '@/db/run';
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
});

export type StoredSso = { config: SsoConfig | null; secretUnreadable: boolean };

/** The stored fields (secret still sealed) and the version: the row's updated_at, what the form sends back. */
async function readStored(db: Db) {
  const row = first(await db.select().from(settings).where(eq(settings.key, KEY)));
  const parsed = StoredSchema.safeParse(row?.value);
  if (!row || !parsed.success) return null;
  return { ...parsed.data, updatedAt: row.updatedAt.toISOString() };
}

/** The provider, or null; `secretUnreadable` when its secret cannot be opened with this key. */
export async function getSsoProvider(db: Db): Promise<StoredSso | null> {
  const stored = await readStored(db);
  if (!stored) return null;
  const { clientSecretSealed, ...rest } = stored;
  const secret = clientSecretSealed === '' ? '' : openValue(db, clientSecretSealed);
  if (secret === null) return { config: null, secretUnreadable: true };
  return { config: { ...rest, clientSecret: secret }, secretUnreadable: false };
}

/** The stored fields without the secret (for an admin whose stored secret cannot be decrypted). */
export async function getSsoProviderPublic(db: Db): Promise<Omit<SsoConfig, 'clientSecret'> | null> {
  const stored = await readStored(db);
  if (!stored) return null;
  const { clientSecretSealed: _sealed, ...rest } = stored;
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
  const value = { ...rest, clientSecretSealed: clientSecret ? sealValue(db, clientSecret) : '' };
  if (ifVersion) {
    // Later than the version it replaces, even within one millisecond.
    const updatedAt = nextUpdatedAt(ifVersion);
    // Conditional on the version: of two saves at once from forms opened at it, one wins.
    const written = await db
      .update(settings)
      .set({ value, updatedAt })
      .where(and(eq(settings.key, KEY), eq(settings.updatedAt, ifVersion)))
      .returning({ key: settings.key });
    return written.length > 0 ? { ...config, updatedAt: updatedAt.toISOString() } : null;
  }
  const stored = await readStored(db);
  const updatedAt = nextUpdatedAt(new Date(stored?.updatedAt ?? 0));
  await db
    .insert(settings)
    .values({ key: KEY, value, updatedAt })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } });
  return { ...config, updatedAt: updatedAt.toISOString() };
}

export async function deleteSsoProvider(db: Db): Promise<void> {
  await db.delete(settings).where(eq(settings.key, KEY));
}
