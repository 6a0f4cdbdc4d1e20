import 'server-only';
import { randomUUID } from 'node:crypto';
import { asc, eq, or } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { assistants, conversations } from '@/db/schema';

export type AssistantRow = typeof assistants.$inferSelect;
export type AssistantValues = Pick<
  AssistantRow,
  'name' | 'instructions' | 'model' | 'toolMode' | 'servers' | 'temperature' | 'shared'
>;

/** The user's own assistants and every shared one, by name. */
export function listVisibleAssistants(db: Db, userId: string): AssistantRow[] {
  return db
    .select()
    .from(assistants)
    .where(or(eq(assistants.userId, userId), eq(assistants.shared, true)))
    .orderBy(asc(assistants.name), asc(assistants.id))
    .all();
}

/** An assistant the user may see (their own, or a shared one); null otherwise (callers answer 404). */
export function getVisibleAssistant(db: Db, userId: string, id: string): AssistantRow | null {
  const row = db.select().from(assistants).where(eq(assistants.id, id)).get();
  return row && (row.userId === userId || row.shared) ? row : null;
}

export function insertAssistant(db: Db, userId: string, values: AssistantValues): AssistantRow {
  const now = new Date();
  return db
    .insert(assistants)
    .values({ id: randomUUID(), userId, ...values, createdAt: now, updatedAt: now })
    .returning()
    .get();
}

export function updateAssistant(db: Db, id: string, patch: Partial<AssistantValues>): AssistantRow | null {
  return (
    db
      .update(assistants)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(assistants.id, id))
      .returning()
      .get() ?? null
  );
}

/** Deletes it; conversations started with it keep their instructions and settings, not the link. */
export function deleteAssistant(db: Db, id: string): boolean {
  return db.transaction((tx) => {
    tx.update(conversations).set({ assistantId: null }).where(eq(conversations.assistantId, id)).run();
    return tx.delete(assistants).where(eq(assistants.id, id)).run().changes > 0;
  });
}

/** The name of a conversation's assistant, if the user may still see it. */
export function assistantName(db: Db, userId: string, id: string | null): string | null {
  if (!id) return null;
  const row = db
    .select({ name: assistants.name, userId: assistants.userId, shared: assistants.shared })
    .from(assistants)
    .where(eq(assistants.id, id))
    .get();
  return row && (row.userId === userId || row.shared) ? row.name : null;
}
