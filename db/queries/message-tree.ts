import 'server-only';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { walkUp } from '@/db/queries/messages';
import { first, isSqlite, type Queryable, q, rawRows, transaction } from '@/db/run';
import { conversations, messages } from '@/db/tables';
import type { ChatMessage } from '@/lib/schemas/chat';

/**
 * For each of the given messages that has other versions (siblings: edits, regenerations), every
 * version's id in the order written. Messages without other versions are left out.
 */
export async function siblingsOf(
  db: Db,
  conversationId: string,
  ids: string[],
): Promise<Record<string, string[]>> {
  if (!ids.length) return {};
  // Null-safe equality: both first messages of a conversation (no parent) are versions of each other.
  const sameParent = isSqlite(db)
    ? sql`s.parent_id is m.parent_id`
    : sql`s.parent_id is not distinct from m.parent_id`;
  const rows = await rawRows<{ id: string; sibling: string }>(
    db,
    sql`
    select m.id as id, s.id as sibling from ${messages} m
    join ${messages} s on s.conversation_id = m.conversation_id and ${sameParent}
    where m.conversation_id = ${conversationId} and m.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})
    order by m.id, s.seq`,
  );
  const out: Record<string, string[]> = {};
  for (const r of rows) {
    const list = out[r.id] ?? [];
    list.push(r.sibling);
    out[r.id] = list;
  }
  for (const [id, list] of Object.entries(out)) if (list.length < 2) delete out[id];
  return out;
}

/**
 * Selects the version `messageId`: the selected path now runs through it and on down its newest
 * answers to a leaf, which is stored on the conversation. Returns the messages from `messageId` to
 * that leaf, or null when the message does not exist.
 */
export async function selectVersion(
  db: Db,
  conversationId: string,
  messageId: string,
): Promise<ChatMessage[] | null> {
  const leaf = await transaction(db, function* (tx) {
    const found = yield* q(
      tx
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.conversationId, conversationId), eq(messages.id, messageId))),
    );
    if (!found.length) return null;
    const ids = [messageId];
    const seen = new Set(ids);
    for (;;) {
      const child = first(
        yield* q(
          tx
            .select({ id: messages.id })
            .from(messages)
            .where(
              and(eq(messages.conversationId, conversationId), eq(messages.parentId, ids.at(-1) as string)),
            )
            .orderBy(desc(messages.seq))
            .limit(1),
        ),
      );
      if (!child || seen.has(child.id)) break;
      ids.push(child.id);
      seen.add(child.id);
    }
    yield* q(setLeaf(tx, conversationId, ids.at(-1) as string));
    return { id: ids.at(-1) as string, depth: ids.length };
  });
  // Read after the switch (a message never changes its parent, so the path is the one just selected).
  return leaf && walkUp(db, conversationId, leaf.id, leaf.depth);
}

export const setLeaf = (tx: Queryable, conversationId: string, leafId: string) =>
  tx.update(conversations).set({ leafId }).where(eq(conversations.id, conversationId));
