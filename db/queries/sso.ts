import 'server-only';
import { and, eq } from 'drizzle-orm';
import * as z from '@/lib/zod';
import type { Db } from '@/db/client';
import { first, lockStep, nextUpdatedAt, type Queryable, q, transaction } from '@/db/run';
import { settings } from '@/db/tables';
import { openValue, sealValue } from '@/db/sealing';
import type { SsoConfig } from '@/lib/sso';

/**
 * The single sign-on provider lives in the settings table under its own key (not one of the admin's
 * plain settings, so GET /api/admin/settings never carries it); the client secret is sealed with
 * ENCRYPTION_KEY (db/sealing.ts) like the model providers' API keys.
 */
export const SSO_PROVIDER_KEY = 'sso.provider';
const KEY = SSO_PROVIDER_KEY;

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

/** Whether password sign-in is off (a transaction step; the row is absent until an admin first sets it: on). */
function* passwordSignInOff(tx: Queryable): Generator<PromiseLike<unknown>, boolean, unknown> {
  const row = first(
    yield* q(tx.select({ value: settings.value }).from(settings).where(eq(settings.key, 'passwordSignIn'))),
  );
  return row?.value === false;
}

/**
 * Stores the provider. With `ifVersion` (the updatedAt the admin's form was opened at) the write happens
 * only while the stored provider is still that version: null (nothing written) when another save came
 * first, so a stale form cannot put back the values another admin just saved. `whilePasswordSignIn`: only
 * while password sign-in is on ('password-off' otherwise), in one step with the writes of the settings.
 */
export function saveSsoProvider(
  db: Db,
  config: Omit<SsoConfig, 'updatedAt'>,
  ifVersion?: Date | null,
): Promise<SsoConfig | null>;
export function saveSsoProvider(
  db: Db,
  config: Omit<SsoConfig, 'updatedAt'>,
  ifVersion: Date | null,
  opts: { whilePasswordSignIn: boolean },
): Promise<SsoConfig | null | 'password-off'>;
export function saveSsoProvider(
  db: Db,
  config: Omit<SsoConfig, 'updatedAt'>,
  ifVersion: Date | null = null,
  { whilePasswordSignIn = false }: { whilePasswordSignIn?: boolean } = {},
): Promise<SsoConfig | null | 'password-off'> {
  const { clientSecret, ...rest } = config;
  const value = { ...rest, clientSecretSealed: clientSecret ? sealValue(db, clientSecret) : '' };
  return transaction(
    db,
    function* (tx) {
      yield* lockStep(tx, 'settings');
      if (whilePasswordSignIn && (yield* passwordSignInOff(tx))) return 'password-off' as const;
      if (ifVersion) {
        // Later than the version it replaces, even within one millisecond.
        const updatedAt = nextUpdatedAt(ifVersion);
        // Conditional on the version: of two saves at once from forms opened at it, one wins.
        const written = yield* q(
          tx
            .update(settings)
            .set({ value, updatedAt })
            .where(and(eq(settings.key, KEY), eq(settings.updatedAt, ifVersion)))
            .returning({ key: settings.key }),
        );
        return written.length > 0 ? { ...config, updatedAt: updatedAt.toISOString() } : null;
      }
      const stored = first(
        yield* q(tx.select({ updatedAt: settings.updatedAt }).from(settings).where(eq(settings.key, KEY))),
      );
      const updatedAt = nextUpdatedAt(stored?.updatedAt ?? new Date(0));
      yield* q(
        tx
          .insert(settings)
          .values({ key: KEY, value, updatedAt })
          .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } }),
      );
      return { ...config, updatedAt: updatedAt.toISOString() };
    },
    { immediate: true },
  );
}

/**
 * Deletes the provider unless password sign-in is off (nobody could sign in then), in one step with the
 * writes of the settings: false, nothing deleted, when it is off.
 */
export function deleteSsoProvider(db: Db): Promise<boolean> {
  return transaction(
    db,
    function* (tx) {
      yield* lockStep(tx, 'settings');
      if (yield* passwordSignInOff(tx)) return false;
      yield* q(tx.delete(settings).where(eq(settings.key, KEY)));
      return true;
    },
    { immediate: true },
  );
}
