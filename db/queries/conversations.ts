import 'server-only';
import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { NewFileRow } from '@/db/queries/files';
import { listMessages } from '@/db/queries/messages';
import type { Db } from '@/db/client';
import { changes, first, isSqlite, q, transaction } from '@/db/run';
import { conversations, files, messages } from '@/db/tables';
import type { ChatMessage } from '@/lib/schemas/chat';

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationSummary = Pick<ConversationRow, 'id' | 'title' | 'updatedAt'>;

/**
 * A conversation row by id. On SQLite the query is built once per database: drizzle otherwise rebuilds
 * its SQL on every call (~0.3 ms of CPU, on every chat turn before the model request).
 */
const byIdQueries = new WeakMap<Db, ReturnType<typeof byIdQuery>>();
const byIdQuery = (db: Db) =>
  db
    .select()
    .from(conversations)
    .where(eq(conversations.id, sql.placeholder('id')))
    .prepare();
async function conversationById(db: Db, id: string): Promise<ConversationRow | undefined> {
  if (!isSqlite(db)) return first(await db.select().from(conversations).where(eq(conversations.id, id)));
  let query = byIdQueries.get(db);
  if (!query) {
    query = byIdQuery(db);
    byIdQueries.set(db, query);
  }
  return query.get({ id });
}

/** The conversation if it exists and belongs to the user; null otherwise (callers answer 404 either way). */
export async function getOwnConversation(
  db: Db,
  userId: string,
  id: string,
): Promise<ConversationRow | null> {
  const row = await conversationById(db, id);
  return row && row.userId === userId ? row : null;
}

/** Whether the id is taken by anyone (a new conversation must not reuse another user's id). */
export async function conversationExists(db: Db, id: string): Promise<boolean> {
  const rows = await db.select({ id: conversations.id }).from(conversations).where(eq(conversations.id, id));
  return rows.length > 0;
}

/** Cursor = `${updatedAtMs}:${id}` of the last row of the previous page; newest first. */
export async function listConversations(
  db: Db,
  userId: string,
  opts: { limit: number; cursor?: string | null },
) {
  const parsed = parseCursor(opts.cursor);
  const where = parsed
    ? and(
        eq(conversations.userId, userId),
        or(
          lt(conversations.updatedAt, parsed.at),
          and(eq(conversations.updatedAt, parsed.at), lt(conversations.id, parsed.id)),
        ),
      )
    : eq(conversations.userId, userId);
  const rows = await db
    .select({ id: conversations.id, title: conversations.title, updatedAt: conversations.updatedAt })
    .from(conversations)
    .where(where)
    .orderBy(desc(conversations.updatedAt), desc(conversations.id))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > opts.limit && last ? `${last.updatedAt.getTime()}:${last.id}` : null;
  return { items: page, nextCursor };
}

function parseCursor(cursor: string | null | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  const sep = cursor.indexOf(':');
  const at = Number(cursor.slice(0, sep));
  if (sep < 1 || !Number.isFinite(at)) return null;
  return { at: new Date(at), id: cursor.slice(sep + 1) };
}

export type ConversationPatch = Partial<
  Pick<
    ConversationRow,
    | 'title'
    | 'titleSource'
    | 'toolMode'
    | 'toolServers'
    | 'disabledTools'
    | 'maxSteps'
    | 'maxToolCalls'
    | 'assistantId'
    | 'instructions'
    | 'temperature'
  >
>;

export async function updateConversation(
  db: Db,
  userId: string,
  id: string,
  patch: ConversationPatch,
): Promise<ConversationRow | null> {
  if (!Object.keys(patch).length) return getOwnConversation(db, userId, id);
  const [row] = await db
    .update(conversations)
    .set(patch)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning();
  return row ?? null;
}

/**
 * Changes the user's conversation by what is stored now, in one transaction: `change` gets the row and
 * answers the fields to write (a throw writes nothing). Another change of the row at the same time waits
 * for this one (SQLite's write lock, a row lock on Postgres) and then sees its result, so neither is lost
 * — what a toggle of the Tools menu needs while another tab toggles something else. Null: not the user's.
 */
export function changeConversation(
  db: Db,
  userId: string,
  id: string,
  change: (row: ConversationRow) => ConversationPatch,
): Promise<ConversationRow | null> {
  const where = and(eq(conversations.id, id), eq(conversations.userId, userId));
  return transaction(
    db,
    function* (tx) {
      const row = first(yield* q(lockedRead(tx, tx.select().from(conversations).where(where))));
      if (!row) return null;
      const patch = change(row);
      if (!Object.keys(patch).length) return row;
      return first(yield* q(tx.update(conversations).set(patch).where(where).returning())) ?? null;
    },
    { immediate: true },
  );
}

/** A read inside a transaction that locks its rows until the end on Postgres (SQLite: the write lock). */
function lockedRead<T extends PromiseLike<unknown>>(tx: Db, read: T): T {
  return isSqlite(tx) ? read : (read as unknown as { for(s: 'update'): T }).for('update');
}

/**
 * Stores the model's title unless someone else wrote one first: only a title that is still the
 * automatic one (the first words) is replaced, in one conditional UPDATE, so a rename made while the
 * title request was in flight wins. Does not touch updated_at (a title is no new activity).
 */
export async function setModelTitle(db: Db, id: string, title: string): Promise<boolean> {
  const res = await db
    .update(conversations)
    .set({ title, titleSource: 'model' })
    .where(and(eq(conversations.id, id), eq(conversations.titleSource, 'auto')));
  return changes(res) > 0;
}

export async function deleteConversation(db: Db, userId: string, id: string): Promise<boolean> {
  const res = await db
    .delete(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)));
  return changes(res) > 0;
}

/**
 * Remembers "always allow this tool in this conversation" (as `server/tool`), in one transaction whose
 * read locks the row (as changeConversation's): two at once both keep theirs.
 */
export async function allowToolsInConversation(db: Db, id: string, refs: string[]): Promise<void> {
  if (!refs.length) return;
  const where = eq(conversations.id, id);
  await transaction(
    db,
    function* (tx) {
      const read = tx.select({ allowed: conversations.allowedTools }).from(conversations).where(where);
      const row = first(yield* q(lockedRead(tx, read)));
      if (!row) return;
      const allowed = [...new Set([...row.allowed, ...refs])];
      yield* q(tx.update(conversations).set({ allowedTools: allowed }).where(where));
    },
    { immediate: true },
  );
}

/**
 * Copies messages into a new conversation of the user (import, "continue in a new chat"). Each message
 * follows its `parentId` (omitted: the message before it, so a plain list becomes one path); the
 * selected path ends at `leafId` (omitted: the last message).
 */
export async function createConversationWithMessages(
  db: Db,
  input: {
    id: string;
    userId: string;
    title: string;
    model: string | null;
    messages: Array<ChatMessage & { role: 'user' | 'assistant'; parentId?: string | null }>;
    leafId?: string;
    /** Files the messages bring (an import's attachments): stored with them, or not at all. */
    files?: NewFileRow[];
  },
): Promise<void> {
  await transaction(db, function* (tx) {
    const now = new Date();
    for (const file of input.files ?? []) yield* q(tx.insert(files).values(file));
    yield* q(
      tx.insert(conversations).values({
        id: input.id,
        userId: input.userId,
        title: input.title,
        // A title brought along (a file's, a share's) is kept as if the user had chosen it.
        titleSource: 'user',
        model: input.model,
        createdAt: now,
        updatedAt: now,
      }),
    );
    for (const [seq, m] of input.messages.entries()) {
      yield* q(
        tx.insert(messages).values({
          id: m.id,
          conversationId: input.id,
          role: m.role,
          parts: m.parts,
          metadata: m.metadata ?? null,
          parentId: m.parentId === undefined ? (input.messages[seq - 1]?.id ?? null) : m.parentId,
          seq,
          createdAt: now,
        }),
      );
    }
    // Each insert made its message the leaf (a trigger): the last one, unless another was selected.
    if (input.leafId && input.leafId !== input.messages.at(-1)?.id)
      yield* q(tx.update(conversations).set({ leafId: input.leafId }).where(eq(conversations.id, input.id)));
  });
}

/**
 * A conversation with the messages of its selected path (the chat turn's only read). `takenByOther`
 * says the id exists but belongs to someone else — callers answer 404 all the same.
 */
export async function loadConversation(
  db: Db,
  userId: string,
  id: string,
): Promise<{ row: ConversationRow | null; takenByOther: boolean; messages: ChatMessage[] }> {
  const row = (await conversationById(db, id)) ?? null;
  if (!row || row.userId !== userId) return { row: null, takenByOther: row !== null, messages: [] };
  return { row, takenByOther: false, messages: await listMessages(db, id) };
}
