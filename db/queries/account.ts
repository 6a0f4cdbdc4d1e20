import 'server-only';
import { and, count, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { conversations, toolCalls, user } from '@/db/schema';

/** The ids of a user's conversations (to stop their running turns before the account goes). */
export function conversationIdsOf(db: Db, userId: string): string[] {
  return db
    .select({ id: conversations.id })
    .from(conversations)
    .where(eq(conversations.userId, userId))
    .all()
    .map((r) => r.id);
}

/**
 * Deletes a user and everything of theirs in one transaction: conversations (with their messages,
 * search index rows and share links), MCP sign-ins and values, sessions and credentials all go by the
 * foreign keys' cascade; the tool-call log rows of their conversations go too. The last enabled admin is
 * never deleted: answers 'last-admin' then, 'gone' when there is no such user.
 */
/** Whether the user is an admin and no other enabled admin exists (such an account is never deleted). */
export function isLastAdmin(db: Db, userId: string): boolean {
  const row = db.select({ role: user.role }).from(user).where(eq(user.id, userId)).get();
  if (row?.role !== 'admin') return false;
  const others =
    db
      .select({ n: count() })
      .from(user)
      .where(and(eq(user.role, 'admin'), eq(user.disabled, false), ne(user.id, userId)))
      .get()?.n ?? 0;
  return others === 0;
}

export function deleteUserAndData(db: Db, userId: string): 'deleted' | 'last-admin' | 'gone' {
  return db.transaction((tx) => {
    const row = tx.select({ role: user.role }).from(user).where(eq(user.id, userId)).get();
    if (!row) return 'gone';
    if (isLastAdmin(tx as unknown as Db, userId)) return 'last-admin';
    const ids = conversationIdsOf(tx as unknown as Db, userId);
    for (let i = 0; i < ids.length; i += 500)
      tx.delete(toolCalls)
        .where(inArray(toolCalls.conversationId, ids.slice(i, i + 500)))
        .run();
    tx.delete(user).where(eq(user.id, userId)).run();
    return 'deleted';
  });
}
