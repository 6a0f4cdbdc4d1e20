import 'server-only';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { first, rawRows } from '@/db/run';
import { conversations, messages } from '@/db/tables';
import type { ChatMessage, MessageMetadata } from '@/lib/schemas/chat';
import { parseStoredMetadata, parseStoredParts } from '@/lib/schemas/stored-message';

export type MessageRow = typeof messages.$inferSelect;

/**
 * A stored row as the chat sees it, validated here, at the edge: its JSON columns are checked part by
 * part (lib/schemas/chat.ts); a part of an unknown kind or a malformed one is left out, not the message.
 * No metadata key when there is none.
 */
export function toChatMessage(m: Pick<MessageRow, 'id' | 'role' | 'parts' | 'metadata'>): ChatMessage {
  const metadata = parseStoredMetadata(m.metadata);
  return { id: m.id, role: m.role, parts: parseStoredParts(m.parts), ...(metadata ? { metadata } : {}) };
}

/** A row read with raw SQL: its JSON columns as text (SQLite) or already parsed (Postgres jsonb). */
type RawRow = { id: string; role: MessageRow['role']; parts: unknown; metadata: unknown };

const parseJson = (text: unknown): unknown => {
  if (text == null) return null;
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

function fromRaw(r: RawRow): ChatMessage {
  return toChatMessage({
    id: r.id,
    role: r.role,
    parts: (parseJson(r.parts) as unknown[]) ?? [],
    metadata: parseJson(r.metadata) as MessageRow['metadata'],
  });
}

/** No path is longer than this (a guard against a parent cycle written by hand). */
const MAX_DEPTH = 1_000_000;

/**
 * The last message of the selected path: the conversation's stored leaf, or (none stored, or it is
 * gone) its newest message. Null for a conversation without messages.
 */
export async function selectedLeaf(db: Db, conversationId: string): Promise<string | null> {
  return (
    first(await rawRows<{ id: string | null }>(db, sql`select ${leafOf(conversationId)} as id`))?.id ?? null
  );
}

/** The selected leaf as an SQL expression (see selectedLeaf). */
export const leafOf = (conversationId: string) => sql`coalesce(
  (select m.id from ${conversations} c join ${messages} m on m.conversation_id = c.id and m.id = c.leaf_id
   where c.id = ${conversationId}),
  (select id from ${messages} where conversation_id = ${conversationId} order by seq desc limit 1))`;

/** The seq a message appended to the conversation takes, as an SQL expression (computed where it is written). */
export const nextSeqOf = (conversationId: string) =>
  sql<number>`(select coalesce(max(seq), -1) + 1 from ${messages} where conversation_id = ${conversationId})`;

/**
 * The messages from `fromId` up its parents, at most `limit` of them, oldest first: one indexed
 * lookup per message (the primary key), so a page costs the same however long the conversation.
 */
const walkUpQuery = (conversationId: string, fromId: string | ReturnType<typeof sql>, limit: number) => sql`
      with recursive path(id, parent_id, depth) as (
        select id, parent_id, 0 from ${messages} where conversation_id = ${conversationId} and id = ${fromId}
        union all
        select m.id, m.parent_id, p.depth + 1 from path p
        join ${messages} m on m.conversation_id = ${conversationId} and m.id = p.parent_id
        where p.depth + 1 < ${limit}
      )
      select m.id, m.role, m.parts, m.metadata from path p
      join ${messages} m on m.conversation_id = ${conversationId} and m.id = p.id
      order by p.depth desc`;
export async function walkUp(
  db: Db,
  conversationId: string,
  fromId: string | ReturnType<typeof sql>,
  limit: number,
): Promise<ChatMessage[]> {
  return (await rawRows<RawRow>(db, walkUpQuery(conversationId, fromId, limit))).map(fromRaw);
}

/** The selected path of the conversation, first message first (what the chat shows and the model sees). */
export function listMessages(db: Db, conversationId: string): Promise<ChatMessage[]> {
  return walkUp(db, conversationId, leafOf(conversationId), MAX_DEPTH);
}

/** Every message of the conversation (all branches) with its parent, in the order written (JSON export). */
export async function listMessageTree(
  db: Db,
  conversationId: string,
): Promise<Array<ChatMessage & { parentId: string | null }>> {
  const rows = await db
    .select({
      id: messages.id,
      role: messages.role,
      parts: messages.parts,
      metadata: messages.metadata,
      parentId: messages.parentId,
    })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.seq));
  return rows.map((m) => ({ ...toChatMessage(m), parentId: m.parentId }));
}

export type MessagePage = {
  messages: ChatMessage[];
  /** Pass as `before` to get the page just older than this one (the id of its first message); null when this page starts the conversation. */
  before: string | null;
};

/**
 * The `limit` messages of the selected path just older than message `before` (the newest ones when
 * omitted), oldest first. A page walks up from there, one primary-key lookup per message, so it costs
 * the same in a conversation of 10 or 10,000 messages.
 */
export async function listMessagePage(
  db: Db,
  conversationId: string,
  opts: { limit: number; before?: string | null },
): Promise<MessagePage> {
  const from =
    opts.before == null
      ? leafOf(conversationId)
      : sql`(select parent_id from ${messages} where conversation_id = ${conversationId} and id = ${opts.before})`;
  const rows = await walkUp(db, conversationId, from, opts.limit + 1);
  const page = rows.length > opts.limit ? rows.slice(1) : rows;
  return { messages: page, before: rows.length > opts.limit && page[0] ? page[0].id : null };
}

/** A conversation's answers' stored usage and cost (the per-conversation totals; lib/usage.ts sums them). */
export async function listAnswerUsage(
  db: Db,
  conversationId: string,
): Promise<Array<MessageMetadata | undefined>> {
  const rows = await db
    .select({ metadata: messages.metadata })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.role, 'assistant')));
  return rows.map((r) => parseStoredMetadata(r.metadata));
}
