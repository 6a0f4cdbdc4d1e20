import 'server-only';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { holdOwnFiles } from '@/db/queries/files';
import { first, isSqlite, type Queryable, q, rawRows, transaction } from '@/db/run';
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
const leafOf = (conversationId: string) => sql`coalesce(
  (select m.id from ${conversations} c join ${messages} m on m.conversation_id = c.id and m.id = c.leaf_id
   where c.id = ${conversationId}),
  (select id from ${messages} where conversation_id = ${conversationId} order by seq desc limit 1))`;

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
async function walkUp(
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

const setLeaf = (tx: Queryable, conversationId: string, leafId: string) =>
  tx.update(conversations).set({ leafId }).where(eq(conversations.id, conversationId));

/**
 * The row of a message written at the end of its conversation (next seq computed in the same statement),
 * following `parentId` (null: it starts the conversation; omitted: the selected leaf).
 */
function appendedRow(
  conversationId: string,
  message: ChatMessage,
  parentId: string | null | undefined,
  createdAt: Date,
) {
  return {
    id: message.id,
    conversationId,
    role: message.role,
    parts: message.parts,
    metadata: message.metadata ?? null,
    parentId: parentId === undefined ? leafOf(conversationId) : parentId,
    seq: sql<number>`(select coalesce(max(${messages.seq}), -1) + 1 from ${messages} where ${messages.conversationId} = ${conversationId})`,
    createdAt,
  };
}

/** A message's own text (its text parts), to tell a retry of it from an edit sent under its id. */
export function textOfParts(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .map((p) =>
      p && typeof p === 'object' && (p as { type?: unknown }).type === 'text'
        ? String((p as { text?: unknown }).text ?? '')
        : '',
    )
    .join('\n');
}

export type UserMessageOutcome =
  | 'appended'
  | 'existing'
  | 'changed'
  | 'not-a-user-message'
  | 'not-yours'
  | 'unknown-parent'
  | 'missing-file';

/**
 * Stores the user's message before the model is called, in one transaction: creates the conversation
 * on its first message. A new message follows `parentId` (null: it starts the conversation; omitted:
 * the selected leaf), so an edit is a new version beside the edited message. A message id that is
 * already stored (a retry, a regenerate) is left as it is: its new answer becomes another version of
 * the old one. Nothing is deleted. Either way the message becomes the selected leaf. A stored id sent
 * with other text is refused ('changed'): an edit is a new message, never a silent rewrite or a lost one.
 * `files`: the ids of the files the message refers to; they are held for it (holdOwnFiles), and a message
 * whose file is gone meanwhile (deleted by the sweep of unsent files) is refused ('missing-file').
 */
export function saveUserMessage(
  db: Db,
  input: {
    conversationId: string;
    userId: string;
    title: string;
    model: string | null;
    isNew: boolean;
    modelChanged: boolean;
    message: ChatMessage;
    parentId?: string | null;
    files?: readonly string[];
  },
): Promise<UserMessageOutcome> {
  const { conversationId, message } = input;
  return transaction(db, function* (tx): Generator<PromiseLike<unknown>, UserMessageOutcome, unknown> {
    // First, before anything is written: a refused message leaves no conversation behind.
    if (input.files?.length && !(yield* holdOwnFiles(tx, input.userId, input.files))) return 'missing-file';
    const now = new Date();
    if (input.isNew) {
      const created = yield* q(
        tx
          .insert(conversations)
          .values({
            id: conversationId,
            userId: input.userId,
            title: input.title,
            model: input.model,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing()
          .returning({ id: conversations.id }),
      );
      // Someone created this id a moment ago: only its owner may write to it.
      if (!created.length) {
        const owner = first(
          yield* q(
            tx
              .select({ userId: conversations.userId })
              .from(conversations)
              .where(eq(conversations.id, conversationId)),
          ),
        );
        if (owner?.userId !== input.userId) return 'not-yours';
      }
    } else if (input.modelChanged && input.model) {
      yield* q(
        tx.update(conversations).set({ model: input.model }).where(eq(conversations.id, conversationId)),
      );
    }
    const { parentId } = input;
    if (parentId && parentId !== message.id) {
      const parent = yield* q(
        tx
          .select({ id: messages.id })
          .from(messages)
          .where(and(eq(messages.conversationId, conversationId), eq(messages.id, parentId))),
      );
      if (!parent.length) return 'unknown-parent';
    }
    // A trigger makes the inserted message the selected leaf (and bumps the conversation's updated_at).
    const inserted = yield* q(
      tx
        .insert(messages)
        .values(appendedRow(conversationId, message, parentId, now))
        .onConflictDoNothing()
        .returning({ id: messages.id }),
    );
    if (inserted.length) return 'appended';
    const existing = first(
      yield* q(
        tx
          .select({ role: messages.role, parts: messages.parts })
          .from(messages)
          .where(and(eq(messages.conversationId, conversationId), eq(messages.id, message.id))),
      ),
    );
    if (existing?.role !== 'user') return 'not-a-user-message';
    if (textOfParts(existing.parts) !== textOfParts(message.parts)) return 'changed';
    yield* q(setLeaf(tx, conversationId, message.id));
    return 'existing';
  });
}

/**
 * Reads one stored message and writes back `change(message)` in one IMMEDIATE transaction: no other
 * writer (another request, another process) can act on the same stored state in between, so a state
 * change such as answering an approval happens exactly once. `change` may throw to leave the row as it
 * was. `change` gets the message as read (toChatMessage): a part left out there is not written back.
 * Null when the message does not exist.
 */
export function changeMessage(
  db: Db,
  conversationId: string,
  messageId: string,
  change: (message: ChatMessage) => ChatMessage,
): Promise<ChatMessage | null> {
  const where = and(eq(messages.conversationId, conversationId), eq(messages.id, messageId));
  return transaction(
    db,
    function* (tx) {
      const read = tx
        .select({ id: messages.id, role: messages.role, parts: messages.parts, metadata: messages.metadata })
        .from(messages)
        .where(where);
      // Postgres: the row is locked until the end (a second answer waits, then sees the first one's result).
      const locked = isSqlite(tx)
        ? read
        : (read as unknown as { for(s: 'update'): typeof read }).for('update');
      const row = first(yield* q(locked));
      if (!row) return null;
      const next = change(toChatMessage(row));
      yield* q(
        tx
          .update(messages)
          .set({ parts: next.parts, metadata: next.metadata ?? null })
          .where(where),
      );
      return next;
    },
    { immediate: true },
  );
}

/**
 * Stores (or updates, by id) the assistant's message as the answer to `parentId` (omitted: the selected
 * leaf), and selects it: the answer ends the selected path.
 */
export async function saveAssistantMessage(
  db: Db,
  conversationId: string,
  message: ChatMessage,
  parentId?: string | null,
): Promise<void> {
  // A new answer becomes the selected leaf by a trigger; one stored already (continued after approvals) is it.
  await db
    .insert(messages)
    .values(appendedRow(conversationId, message, parentId, new Date()))
    .onConflictDoUpdate({
      target: [messages.conversationId, messages.id],
      set: { parts: message.parts, metadata: message.metadata ?? null },
    });
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
