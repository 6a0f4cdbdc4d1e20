import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { holdOwnFiles } from '@/db/queries/files';
import { setLeaf } from '@/db/queries/message-tree';
import { leafOf, nextSeqOf, toChatMessage } from '@/db/queries/messages';
import { type UserMessageInput, appendUserMessageAtOnce } from '@/db/queries/user-message-at-once';
import { first, isSqlite, q, transaction } from '@/db/run';
import { conversations, messages } from '@/db/tables';
import type { ChatMessage } from '@/lib/schemas/chat';

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
    seq: nextSeqOf(conversationId),
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
export function saveUserMessage(db: Db, input: UserMessageInput): Promise<UserMessageOutcome> {
  // SQLite: the transaction, run synchronously by now. Postgres: the usual cases in one statement
  // (user-message-at-once.ts); the others, and why a case was not appended, in the transaction.
  if (isSqlite(db)) return saveInTransaction(db, input);
  return appendUserMessageAtOnce(db, input).then((appended) =>
    appended ? 'appended' : saveInTransaction(db, input),
  );
}

function saveInTransaction(db: Db, input: UserMessageInput): Promise<UserMessageOutcome> {
  const { conversationId, message } = input;
  return transaction(db, function* (tx): Generator<PromiseLike<unknown>, UserMessageOutcome, unknown> {
    // First, before anything is written: a refused message leaves no conversation behind.
    if (input.files?.length && !(yield* holdOwnFiles(tx, input.userId, input.files))) return 'missing-file';
    const now = new Date();
    const { parentId } = input;
    if (input.isNew) {
      // A first message that follows one (its conversation was deleted meanwhile, say) has nothing to
      // follow unless the conversation exists after all: refused before the conversation is created.
      if (parentId && parentId !== message.id) {
        const exists = yield* q(
          tx.select({ id: conversations.id }).from(conversations).where(eq(conversations.id, conversationId)),
        );
        if (!exists.length) return 'unknown-parent';
      }
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
