import 'server-only';
import { type SQL, sql } from 'drizzle-orm';
import { leafOf, nextSeqOf } from '@/db/queries/messages';
import { isSqlite, type Queryable, rawRows } from '@/db/run';
import type { ChatMessage } from '@/lib/schemas/chat';

export type UserMessageInput = {
  conversationId: string;
  userId: string;
  title: string;
  model: string | null;
  isNew: boolean;
  modelChanged: boolean;
  message: ChatMessage;
  parentId?: string | null;
  files?: readonly string[];
};

/**
 * On Postgres, the usual user message (a conversation's first message, or one that follows a stored
 * message) stored in ONE statement instead of a transaction of four (BEGIN, a check or the
 * conversation's insert, the message's insert, COMMIT): each statement is a round trip to the database
 * and a wake-up of its process, and a chat turn's CPU on this path was mostly those (bench:scale).
 * - a first message: the conversation's insert is a data-modifying CTE and the message is inserted from
 *   its result, so both are written, or neither when the conversation id exists already;
 * - a following message: inserted only if the message it follows exists (WHERE EXISTS), with the same
 *   next `seq` and selected-leaf parent as the transaction computes.
 * Either way the statement is atomic and the messages_touch_insert trigger selects the new message, as
 * it does for the transaction. True when the message was appended. False when it was not, or when this
 * case is not one of those (SQLite, files to hold, a model change, a first message that names a parent,
 * a message naming itself as parent): then nothing was written and the caller runs the transaction,
 * which tells why (another user's id, a retry, an edit under a stored id, an unknown parent).
 */
export async function appendUserMessageAtOnce(db: Queryable, input: UserMessageInput): Promise<boolean> {
  if (isSqlite(db) || input.files?.length) return false;
  const { conversationId: c, message, parentId } = input;
  if (parentId === message.id) return false;
  const now = new Date().toISOString();
  const parts = JSON.stringify(message.parts);
  let statement: SQL;
  if (input.isNew) {
    if (parentId) return false;
    statement = sql`with created as (
        insert into conversations (id, user_id, title, model, created_at, updated_at)
        values (${c}, ${input.userId}, ${input.title}, ${input.model}, ${now}::timestamptz, ${now}::timestamptz)
        on conflict do nothing
        returning id
      )
      insert into messages (id, conversation_id, role, parts, metadata, parent_id, seq, created_at)
      select ${message.id}, created.id, 'user', ${parts}::json, null, null, 0, ${now}::timestamptz from created
      on conflict do nothing
      returning id`;
  } else {
    if (input.modelChanged) return false;
    const parent = parentId === undefined ? leafOf(c) : parentId === null ? sql`null` : sql`${parentId}`;
    const parentExists = parentId
      ? sql`where exists (select 1 from messages where conversation_id = ${c} and id = ${parentId})`
      : sql``;
    statement = sql`insert into messages (id, conversation_id, role, parts, metadata, parent_id, seq, created_at)
      select ${message.id}, ${c}, 'user', ${parts}::json, null, ${parent},
        ${nextSeqOf(c)}, ${now}::timestamptz
      ${parentExists}
      on conflict do nothing
      returning id`;
  }
  return (await rawRows<{ id: string }>(db, statement)).length === 1;
}
