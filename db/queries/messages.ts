import 'server-only';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { conversations, messages } from '@/db/schema';
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

/** A row read with raw SQL: its JSON columns still as text. */
type RawRow = { id: string; role: MessageRow['role']; parts: string; metadata: string | null };

const parseJson = (text: string | null): unknown => {
  if (text == null) return null;
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
export function selectedLeaf(db: Db, conversationId: string): string | null {
  return db.get<{ id: string | null }>(sql`select ${leafOf(conversationId)} as id`)?.id ?? null;
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
function walkUp(
  db: Db,
  conversationId: string,
  fromId: string | ReturnType<typeof sql>,
  limit: number,
): ChatMessage[] {
  return db
    .all<RawRow>(sql`
      with recursive path(id, parent_id, depth) as (
        select id, parent_id, 0 from ${messages} where conversation_id = ${conversationId} and id = ${fromId}
        union all
        select m.id, m.parent_id, p.depth + 1 from path p
        join ${messages} m on m.conversation_id = ${conversationId} and m.id = p.parent_id
        where p.depth + 1 < ${limit}
      )
      select m.id, m.role, m.parts, m.metadata from path p
      join ${messages} m on m.conversation_id = ${conversationId} and m.id = p.id
      order by p.depth desc`)
    .map(fromRaw);
}

/** The selected path of the conversation, first message first (what the chat shows and the model sees). */
export function listMessages(db: Db, conversationId: string): ChatMessage[] {
  return walkUp(db, conversationId, leafOf(conversationId), MAX_DEPTH);
}

/** Every message of the conversation (all branches) with its parent, in the order written (JSON export). */
export function listMessageTree(
  db: Db,
  conversationId: string,
): Array<ChatMessage & { parentId: string | null }> {
  return db
    .select({
      id: messages.id,
      role: messages.role,
      parts: messages.parts,
      metadata: messages.metadata,
      parentId: messages.parentId,
    })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.seq))
    .all()
    .map((m) => ({ ...toChatMessage(m), parentId: m.parentId }));
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
export function listMessagePage(
  db: Db,
  conversationId: string,
  opts: { limit: number; before?: string | null },
): MessagePage {
  const from =
    opts.before == null
      ? leafOf(conversationId)
      : sql`(select parent_id from ${messages} where conversation_id = ${conversationId} and id = ${opts.before})`;
  const rows = walkUp(db, conversationId, from, opts.limit + 1);
  const page = rows.length > opts.limit ? rows.slice(1) : rows;
  return { messages: page, before: rows.length > opts.limit && page[0] ? page[0].id : null };
}

/**
 * For each of the given messages that has other versions (siblings: edits, regenerations), every
 * version's id in the order written. Messages without other versions are left out.
 */
export function siblingsOf(db: Db, conversationId: string, ids: string[]): Record<string, string[]> {
  if (!ids.length) return {};
  const rows = db.all<{ id: string; sibling: string }>(sql`
    select m.id as id, s.id as sibling from ${messages} m
    join ${messages} s on s.conversation_id = m.conversation_id and s.parent_id is m.parent_id
    where m.conversation_id = ${conversationId} and m.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})
    order by m.id, s.seq`);
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
export function selectVersion(db: Db, conversationId: string, messageId: string): ChatMessage[] | null {
  return db.transaction((tx) => {
    const first = tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.id, messageId)))
      .get();
    if (!first) return null;
    const ids = [messageId];
    const seen = new Set(ids);
    for (;;) {
      const child = tx
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.conversationId, conversationId), eq(messages.parentId, ids.at(-1) as string)))
        .orderBy(desc(messages.seq))
        .limit(1)
        .get();
      if (!child || seen.has(child.id)) break;
      ids.push(child.id);
      seen.add(child.id);
    }
    setLeaf(tx, conversationId, ids.at(-1) as string);
    return walkUp(tx as unknown as Db, conversationId, ids.at(-1) as string, ids.length);
  });
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

function setLeaf(tx: Tx | Db, conversationId: string, leafId: string): void {
  tx.update(conversations).set({ leafId }).where(eq(conversations.id, conversationId)).run();
}

/** The row of a message written at the end of its conversation (next seq computed in the same statement). */
function appendedRow(
  conversationId: string,
  message: ChatMessage,
  parentId: string | null | ReturnType<typeof sql>,
  createdAt: Date,
) {
  return {
    id: message.id,
    conversationId,
    role: message.role,
    parts: message.parts,
    metadata: message.metadata ?? null,
    parentId,
    seq: sql<number>`(select coalesce(max(${messages.seq}), -1) + 1 from ${messages} where ${messages.conversationId} = ${conversationId})`,
    createdAt,
  };
}

export type UserMessageOutcome =
  | 'appended'
  | 'existing'
  | 'not-a-user-message'
  | 'not-yours'
  | 'unknown-parent';

/**
 * Stores the user's message before the model is called, in one transaction: creates the conversation
 * on its first message. A new message follows `parentId` (null: it starts the conversation; omitted:
 * the selected leaf), so an edit is a new version beside the edited message. A message id that is
 * already stored (a retry, a regenerate) is left as it is: its new answer becomes another version of
 * the old one. Nothing is deleted. Either way the message becomes the selected leaf.
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
  },
): UserMessageOutcome {
  const { conversationId, message } = input;
  return db.transaction((tx) => {
    const now = new Date();
    if (input.isNew) {
      const created = tx
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
        .returning({ id: conversations.id })
        .get();
      // Someone created this id a moment ago: only its owner may write to it.
      if (
        !created &&
        tx
          .select({ userId: conversations.userId })
          .from(conversations)
          .where(eq(conversations.id, conversationId))
          .get()?.userId !== input.userId
      ) {
        return 'not-yours';
      }
    } else if (input.modelChanged && input.model) {
      tx.update(conversations).set({ model: input.model }).where(eq(conversations.id, conversationId)).run();
    }
    const { parentId } = input;
    if (
      parentId &&
      parentId !== message.id &&
      !tx
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.conversationId, conversationId), eq(messages.id, parentId)))
        .get()
    )
      return 'unknown-parent';
    // A trigger makes the inserted message the selected leaf (and bumps the conversation's updated_at).
    const inserted = tx
      .insert(messages)
      .values(
        appendedRow(conversationId, message, parentId === undefined ? leafOf(conversationId) : parentId, now),
      )
      .onConflictDoNothing()
      .returning({ id: messages.id })
      .get();
    if (inserted) return 'appended';
    const existing = tx
      .select({ role: messages.role })
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.id, message.id)))
      .get();
    if (existing?.role !== 'user') return 'not-a-user-message';
    setLeaf(tx, conversationId, message.id);
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
): ChatMessage | null {
  const where = and(eq(messages.conversationId, conversationId), eq(messages.id, messageId));
  return db.transaction(
    (tx) => {
      const row = tx
        .select({ id: messages.id, role: messages.role, parts: messages.parts, metadata: messages.metadata })
        .from(messages)
        .where(where)
        .get();
      if (!row) return null;
      const next = change(toChatMessage(row));
      tx.update(messages)
        .set({ parts: next.parts, metadata: next.metadata ?? null })
        .where(where)
        .run();
      return next;
    },
    { behavior: 'immediate' },
  );
}

/**
 * Stores (or updates, by id) the assistant's message as the answer to `parentId` (omitted: the selected
 * leaf), and selects it: the answer ends the selected path.
 */
export function saveAssistantMessage(
  db: Db,
  conversationId: string,
  message: ChatMessage,
  parentId?: string | null,
): void {
  // A new answer becomes the selected leaf by a trigger; one stored already (continued after approvals) is it.
  db.insert(messages)
    .values(
      appendedRow(
        conversationId,
        message,
        parentId === undefined ? leafOf(conversationId) : parentId,
        new Date(),
      ),
    )
    .onConflictDoUpdate({
      target: [messages.conversationId, messages.id],
      set: { parts: message.parts, metadata: message.metadata ?? null },
    })
    .run();
}

/**
 * At start, before any turn runs: every user message still without an answer, or ending the selected
 * path (a regenerate), lost its answer when the previous process stopped (a crash, kill -9). Each gets an empty answer marked interrupted, so the UI shows what
 * happened and offers Retry; the new answer ends the selected path. Returns how many.
 */
export function markUnansweredTurns(db: Db, reason: string): number {
  // Each new answer becomes its conversation's selected leaf (the insert trigger).
  return db.run(sql`
      insert into ${messages} (id, conversation_id, role, parts, metadata, parent_id, seq, created_at)
      select 'interrupted-' || m.seq || '-' || lower(hex(randomblob(6))), m.conversation_id, 'assistant', '[]',
             json_object('interrupted', json('true'), 'error', ${reason}), m.id,
             (select max(seq) + 1 from ${messages} where conversation_id = m.conversation_id),
             unixepoch('subsec') * 1000
      from ${messages} m
      where m.role = 'user'
        and (
          not exists (select 1 from ${messages} c where c.conversation_id = m.conversation_id and c.parent_id = m.id)
          -- a regenerate cut short: the question ends the selected path, its earlier answers beside it
          or m.id = (select leaf_id from ${conversations} where id = m.conversation_id)
        )`).changes;
}

/** A conversation's answers' stored usage and cost (the per-conversation totals; lib/usage.ts sums them). */
export function listAnswerUsage(db: Db, conversationId: string): Array<MessageMetadata | undefined> {
  return db
    .select({ metadata: messages.metadata })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.role, 'assistant')))
    .all()
    .map((r) => parseStoredMetadata(r.metadata));
}
