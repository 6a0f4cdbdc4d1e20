import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { changes, first, nextUpdatedAt } from '@/db/run';
import { openValue, reportUnreadable, sealValue } from '@/db/sealing';
import { providers } from '@/db/tables';

type ProviderRow = typeof providers.$inferSelect;

/** A provider with its API key in clear (sealed only in the database). */
export type ProviderRecord = Omit<ProviderRow, 'apiKeyEncrypted'> & {
  apiKey: string | null;
  /** A key is stored but cannot be decrypted with this ENCRYPTION_KEY: the provider is misconfigured. */
  apiKeyUnreadable: boolean;
};
export type ProviderValues = Omit<
  typeof providers.$inferInsert,
  'id' | 'apiKeyEncrypted' | 'createdAt' | 'updatedAt'
> & {
  /** null or '' removes the key; undefined (in an update) keeps it. */
  apiKey?: string | null;
};

function toRecord(db: Db, { apiKeyEncrypted, ...row }: ProviderRow): ProviderRecord {
  if (!apiKeyEncrypted) return { ...row, apiKey: null, apiKeyUnreadable: false };
  const apiKey = openValue(db, apiKeyEncrypted);
  if (apiKey === null) reportUnreadable(`provider "${row.name}"`, ['API key']);
  return { ...row, apiKey, apiKeyUnreadable: apiKey === null };
}

function toColumns(db: Db, { apiKey, ...values }: Partial<ProviderValues>) {
  return {
    ...values,
    ...(apiKey === undefined ? {} : { apiKeyEncrypted: apiKey ? sealValue(db, apiKey) : null }),
  };
}

export async function listProviders(db: Db): Promise<ProviderRecord[]> {
  const rows = await db.select().from(providers).orderBy(asc(providers.name));
  return rows.map((row) => toRecord(db, row));
}

export async function getProvider(db: Db, id: string): Promise<ProviderRecord | null> {
  const row = first(await db.select().from(providers).where(eq(providers.id, id)));
  return row ? toRecord(db, row) : null;
}

/** The id of the provider with this name, or null. */
export async function getProviderIdByName(db: Db, name: string): Promise<string | null> {
  return (
    first(await db.select({ id: providers.id }).from(providers).where(eq(providers.name, name)))?.id ?? null
  );
}

/** Null when the name is taken. */
export async function createProvider(db: Db, values: ProviderValues): Promise<ProviderRecord | null> {
  const [row] = await db
    .insert(providers)
    .values({ id: randomUUID(), ...toColumns(db, values), name: values.name, baseURL: values.baseURL })
    .onConflictDoNothing({ target: providers.name })
    .returning();
  return row ? toRecord(db, row) : null;
}

/**
 * Writes a provider read at `read` (its updatedAt then). With `ifUnchanged`, only when nobody has written
 * it since, in one conditional UPDATE: null when it was changed (or deleted) in between.
 */
export async function updateProvider(
  db: Db,
  id: string,
  values: Partial<ProviderValues>,
  read: Date,
  { ifUnchanged = false }: { ifUnchanged?: boolean } = {},
): Promise<ProviderRecord | null> {
  const [row] = await db
    .update(providers)
    .set({ ...toColumns(db, values), updatedAt: nextUpdatedAt(read) })
    .where(ifUnchanged ? and(eq(providers.id, id), eq(providers.updatedAt, read)) : eq(providers.id, id))
    .returning();
  return row ? toRecord(db, row) : null;
}

export async function deleteProvider(db: Db, id: string): Promise<boolean> {
  return changes(await db.delete(providers).where(eq(providers.id, id))) > 0;
}
