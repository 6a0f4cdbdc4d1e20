import 'server-only';
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { openValue, reportUnreadable, sealValue } from '@/db/sealing';
import { providers } from '@/db/schema';

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

export function listProviders(db: Db): ProviderRecord[] {
  return db
    .select()
    .from(providers)
    .orderBy(asc(providers.name))
    .all()
    .map((row) => toRecord(db, row));
}

export function getProvider(db: Db, id: string): ProviderRecord | null {
  const row = db.select().from(providers).where(eq(providers.id, id)).get();
  return row ? toRecord(db, row) : null;
}

/** Null when the name is taken. */
export function createProvider(db: Db, values: ProviderValues): ProviderRecord | null {
  const row = db
    .insert(providers)
    .values({ id: randomUUID(), ...toColumns(db, values), name: values.name, baseURL: values.baseURL })
    .onConflictDoNothing({ target: providers.name })
    .returning()
    .get();
  return row ? toRecord(db, row) : null;
}

export function updateProvider(db: Db, id: string, values: Partial<ProviderValues>): ProviderRecord | null {
  const row = db
    .update(providers)
    .set({ ...toColumns(db, values), updatedAt: new Date() })
    .where(eq(providers.id, id))
    .returning()
    .get();
  return row ? toRecord(db, row) : null;
}

export function deleteProvider(db: Db, id: string): boolean {
  return db.delete(providers).where(eq(providers.id, id)).run().changes > 0;
}
