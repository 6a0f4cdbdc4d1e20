import 'server-only';
import { and, count, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { first, type Queryable, q, transaction } from '@/db/run';
import { conversations, toolCalls, user } from '@/db/tables';
import { adminsLockStep } from '@/db/queries/users';

const idsOf = (db: Queryable, userId: string) =>
  db.select({ id: conversations.id }).from(conversations).where(eq(conversations.userId, userId));

/** The ids of a user's conversations (to stop their running turns before the account goes). */
export async function conversationIdsOf(db: Db, userId: string): Promise<string[]> {
  return (await idsOf(db, userId)).map((r) => r.id);
}

function* lastAdminStep(db: Queryable, userId: string) {
  const row = first(yield* q(db.select({ role: user.role }).from(user).where(eq(user.id, userId))));
  if (row?.role !== 'admin') return false;
  const others = first(
    yield* q(
      db
        .select({ n: count() })
        .from(user)
        .where(and(eq(user.role, 'admin'), eq(user.disabled, false), ne(user.id, userId))),
    ),
  );
  return (others?.n ?? 0) === 0;
}

/** Whether the user is an admin and no other enabled admin exists (such an account is never deleted). */
export function isLastAdmin(db: Db, userId: string): Promise<boolean> {
  return transaction(db, (tx) => lastAdminStep(tx, userId));
}

/**
 * Deletes a user and everything of theirs in one transaction: conversations (with their messages,
 * search index rows and share links), MCP sign-ins and values, sessions and credentials all go by the
 * foreign keys' cascade; the tool-call log rows of their conversations go too. The last enabled admin is
 * never deleted: answers 'last-admin' then, 'gone' when there is no such user.
 */
export function deleteUserAndData(db: Db, userId: string): Promise<'deleted' | 'last-admin' | 'gone'> {
  return transaction(
    db,
    function* (tx) {
      yield* adminsLockStep(tx);
      const row = first(yield* q(tx.select({ role: user.role }).from(user).where(eq(user.id, userId))));
      if (!row) return 'gone' as const;
      if (yield* lastAdminStep(tx, userId)) return 'last-admin' as const;
      const ids = (yield* q(idsOf(tx, userId))).map((r) => r.id);
      for (let i = 0; i < ids.length; i += 500)
        yield* q(tx.delete(toolCalls).where(inArray(toolCalls.conversationId, ids.slice(i, i + 500))));
      yield* q(tx.delete(user).where(eq(user.id, userId)));
      return 'deleted' as const;
    },
    { immediate: true },
  );
}
