import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, or } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { changes, first, nextUpdatedAt, q, transaction } from '@/db/run';
import { assistants, conversations } from '@/db/tables';

export type AssistantRow = typeof assistants.$inferSelect;
export type AssistantValues = Pick<
  AssistantRow,
  'name' | 'instructions' | 'model' | 'toolMode' | 'servers' | 'temperature' | 'shared'
>;

/** The user's own assistants and every shared one, by name. */
export async function listVisibleAssistants(db: Db, userId: string): Promise<AssistantRow[]> {
  return db
    .select()
    .from(assistants)
    .where(or(eq(assistants.userId, userId), eq(assistants.shared, true)))
    .orderBy(asc(assistants.name), asc(assistants.id));
}

/** An assistant the user may see (their own, or a shared one); null otherwise (callers answer 404). */
export async function getVisibleAssistant(db: Db, userId: string, id: string): Promise<AssistantRow | null> {
  const row = first(await db.select().from(assistants).where(eq(assistants.id, id)));
  return row && (row.userId === userId || row.shared) ? row : null;
}

export async function insertAssistant(
  db: Db,
  userId: string,
  values: AssistantValues,
): Promise<AssistantRow> {
  const now = new Date();
  const rows = await db
    .insert(assistants)
    .values({ id: randomUUID(), userId, ...values, createdAt: now, updatedAt: now })
    .returning();
  return rows[0] as AssistantRow;
}

/**
 * Writes the fields given over the version read at `read`. `ifUnchanged`: only if it is still that
 * version (null when it was written since, or is gone).
 */
export async function updateAssistant(
  db: Db,
  id: string,
  patch: Partial<AssistantValues>,
  read: Date,
  { ifUnchanged = false }: { ifUnchanged?: boolean } = {},
): Promise<AssistantRow | null> {
  const rows = await db
    .update(assistants)
    .set({ ...patch, updatedAt: nextUpdatedAt(read) })
    .where(ifUnchanged ? and(eq(assistants.id, id), eq(assistants.updatedAt, read)) : eq(assistants.id, id))
    .returning();
  return first(rows) ?? null;
}

/** Deletes it; conversations started with it keep their instructions and settings, not the link. */
export function deleteAssistant(db: Db, id: string): Promise<boolean> {
  return transaction(db, function* (tx) {
    yield* q(tx.update(conversations).set({ assistantId: null }).where(eq(conversations.assistantId, id)));
    return changes(yield* q(tx.delete(assistants).where(eq(assistants.id, id)))) > 0;
  });
}

/** The name of a conversation's assistant, if the user may still see it. */
export async function assistantName(db: Db, userId: string, id: string | null): Promise<string | null> {
  if (!id) return null;
  const row = first(
    await db
      .select({ name: assistants.name, userId: assistants.userId, shared: assistants.shared })
      .from(assistants)
      .where(eq(assistants.id, id)),
  );
  return row && (row.userId === userId || row.shared) ? row.name : null;
}
