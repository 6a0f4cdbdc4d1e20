import 'server-only';
import { and, desc, eq, lt, or } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { conversations } from '@/db/schema';

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationSummary = Pick<ConversationRow, 'id' | 'title' | 'updatedAt'>;

/** The conversation if it exists and belongs to the user; null otherwise (callers answer 404 either way). */
export function getOwnConversation(db: Db, userId: string, id: string): ConversationRow | null {
  const row = db.select().from(conversations).where(eq(conversations.id, id)).get();
  return row && row.userId === userId ? row : null;
}

/** Whether the id is taken by anyone (a new conversation must not reuse another user's id). */
export function conversationExists(db: Db, id: string): boolean {
  return !!db.select({ id: conversations.id }).from(conversations).where(eq(conversations.id, id)).get();
}

/** Cursor = `${updatedAtMs}:${id}` of the last row of the previous page; newest first. */
export function listConversations(db: Db, userId: string, opts: { limit: number; cursor?: string | null }) {
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
  const rows = db
    .select({ id: conversations.id, title: conversations.title, updatedAt: conversations.updatedAt })
    .from(conversations)
    .where(where)
    .orderBy(desc(conversations.updatedAt), desc(conversations.id))
    .limit(opts.limit + 1)
    .all();
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

export function renameConversation(db: Db, userId: string, id: string, title: string): ConversationRow | null {
  return (
    db
      .update(conversations)
      .set({ title })
      .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
      .returning()
      .get() ?? null
  );
}

export function deleteConversation(db: Db, userId: string, id: string): boolean {
  const res = db
    .delete(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .run();
  return res.changes > 0;
}

/** Remembers "always allow this tool in this conversation" (as `server/tool`). */
export function allowToolsInConversation(db: Db, id: string, refs: string[]): void {
  if (!refs.length) return;
  const row = db.select({ allowed: conversations.allowedTools }).from(conversations).where(eq(conversations.id, id)).get();
  if (!row) return;
  const allowed = [...new Set([...row.allowed, ...refs])];
  db.update(conversations).set({ allowedTools: allowed }).where(eq(conversations.id, id)).run();
}
