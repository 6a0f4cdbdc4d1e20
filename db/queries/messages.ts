import 'server-only';
import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
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

export function listMessages(db: Db, conversationId: string): ChatMessage[] {
  return db
    .select({ id: messages.id, role: messages.role, parts: messages.parts, metadata: messages.metadata })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.seq))
    .all()
    .map(toChatMessage);
}

export type MessagePage = {
  messages: ChatMessage[];
  /** Pass as `before` to get the page just older than this one; null when this page starts the conversation. */
  before: number | null;
};

/**
 * The `limit` newest messages older than position `before` (all positions when omitted), oldest first.
 * One indexed range read (messages_conv_seq_idx), so a page costs the same in a conversation of 10 or 10,000.
 */
export function listMessagePage(
  db: Db,
  conversationId: string,
  opts: { limit: number; before?: number | null },
): MessagePage {
  const where =
    opts.before == null
      ? eq(messages.conversationId, conversationId)
      : and(eq(messages.conversationId, conversationId), lt(messages.seq, opts.before));
  const rows = db
    .select({
      id: messages.id,
      role: messages.role,
      parts: messages.parts,
      metadata: messages.metadata,
      seq: messages.seq,
    })
    .from(messages)
    .where(where)
    .orderBy(desc(messages.seq))
    .limit(opts.limit + 1)
    .all();
  const page = rows.slice(0, opts.limit).reverse();
  return {
    messages: page.map(toChatMessage),
    before: rows.length > opts.limit && page[0] ? page[0].seq : null,
  };
}

/** The row of a message appended at the end of its conversation (next seq computed in the same statement). */
function appendedRow(conversationId: string, message: ChatMessage, createdAt: Date) {
  return {
    id: message.id,
    conversationId,
    role: message.role,
    parts: message.parts,
    metadata: message.metadata ?? null,
    seq: sql<number>`(select coalesce(max(${messages.seq}), -1) + 1 from ${messages} where ${messages.conversationId} = ${conversationId})`,
    createdAt,
  };
}

export type UserMessageOutcome = 'appended' | 'replaced' | 'not-a-user-message' | 'not-yours';

/**
 * Stores the user's message before the model is called, in one transaction: creates the conversation
 * on its first message; a message id that is already stored (a retry, a regenerate, an edit) replaces
 * that message and drops everything after it. The usual case is one INSERT (a trigger bumps the
 * conversation's updated_at).
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
    const inserted = tx
      .insert(messages)
      .values(appendedRow(conversationId, message, now))
      .onConflictDoNothing()
      .returning({ id: messages.id })
      .get();
    if (inserted) return 'appended';
    const existing = tx
      .select({ seq: messages.seq, role: messages.role })
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.id, message.id)))
      .get();
    if (existing?.role !== 'user') return 'not-a-user-message';
    tx.delete(messages)
      .where(and(eq(messages.conversationId, conversationId), gt(messages.seq, existing.seq)))
      .run();
    tx.update(messages)
      .set({ parts: message.parts, metadata: message.metadata ?? null })
      .where(and(eq(messages.conversationId, conversationId), eq(messages.id, message.id)))
      .run();
    return 'replaced';
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

/** Stores (or replaces, by id) the assistant's message at the end of the conversation. */
export function saveAssistantMessage(db: Db, conversationId: string, message: ChatMessage): void {
  db.insert(messages)
    .values(appendedRow(conversationId, message, new Date()))
    .onConflictDoUpdate({
      target: [messages.conversationId, messages.id],
      set: { parts: message.parts, metadata: message.metadata ?? null },
    })
    .run();
}

/**
 * At start, before any turn runs: every conversation whose last message is still the user's lost its
 * answer when the previous process stopped (a crash, kill -9). Each gets an empty answer marked
 * interrupted, so the UI shows what happened and offers Retry. One statement. Returns how many.
 */
export function markUnansweredTurns(db: Db, reason: string): number {
  return db.run(sql`
    insert into ${messages} (id, conversation_id, role, parts, metadata, seq, created_at)
    select 'interrupted-' || m.seq || '-' || lower(hex(randomblob(6))), m.conversation_id, 'assistant', '[]',
           json_object('interrupted', json('true'), 'error', ${reason}), m.seq + 1, unixepoch('subsec') * 1000
    from ${messages} m
    where m.role = 'user'
      and m.seq = (select max(seq) from ${messages} where conversation_id = m.conversation_id)`).changes;
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
