import 'server-only';
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { providers } from '@/db/schema';

export type ProviderRow = typeof providers.$inferSelect;
export type ProviderValues = Omit<typeof providers.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

export function listProviders(db: Db): ProviderRow[] {
  return db.select().from(providers).orderBy(asc(providers.name)).all();
}

export function getProvider(db: Db, id: string): ProviderRow | null {
  return db.select().from(providers).where(eq(providers.id, id)).get() ?? null;
}

/** Null when the name is taken. */
export function createProvider(db: Db, values: ProviderValues): ProviderRow | null {
  return db.insert(providers).values({ id: randomUUID(), ...values }).onConflictDoNothing({ target: providers.name }).returning().get() ?? null;
}

export function updateProvider(db: Db, id: string, values: Partial<ProviderValues>): ProviderRow | null {
  return db.update(providers).set({ ...values, updatedAt: new Date() }).where(eq(providers.id, id)).returning().get() ?? null;
}

export function deleteProvider(db: Db, id: string): boolean {
  return db.delete(providers).where(eq(providers.id, id)).run().changes > 0;
}
