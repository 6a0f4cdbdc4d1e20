import 'server-only';
import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { first, lockStep, type Queryable, q, transaction } from '@/db/run';
import { session, user } from '@/db/tables';

export type UserRow = typeof user.$inferSelect;
export type PublicUser = Pick<UserRow, 'id' | 'name' | 'email' | 'role' | 'disabled' | 'createdAt'>;

const publicColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  disabled: user.disabled,
  createdAt: user.createdAt,
};

export async function countUsers(db: Db): Promise<number> {
  return first(await db.select({ n: count() }).from(user))?.n ?? 0;
}

export async function getUserById(db: Db, id: string): Promise<PublicUser | null> {
  return first(await db.select(publicColumns).from(user).where(eq(user.id, id))) ?? null;
}

export async function listUsers(db: Db): Promise<PublicUser[]> {
  return db.select(publicColumns).from(user).orderBy(desc(user.createdAt));
}

/**
 * Serialises the transactions that could leave no enabled admin (demoting, disabling or deleting an admin)
 * on Postgres, where they would otherwise each see the other's admin still there; a SQLite one runs alone.
 */
export const adminsLockStep = (tx: Queryable) => lockStep(tx, 'admins');

/**
 * An admin (`actorId`) changes a user's role or disabled; disabling ends every session of the user. The actor
 * is checked to still be an enabled admin in the same transaction ('not-admin': demoted or disabled since their
 * request was let in), so two admins demoting or disabling each other at once leave one admin, not none.
 */
export function updateUser(
  db: Db,
  actorId: string,
  id: string,
  patch: { role?: UserRow['role']; disabled?: boolean },
): Promise<PublicUser | 'gone' | 'not-admin'> {
  return transaction(
    db,
    function* (tx) {
      yield* adminsLockStep(tx);
      const actor = first(
        yield* q(
          tx.select({ role: user.role, disabled: user.disabled }).from(user).where(eq(user.id, actorId)),
        ),
      );
      if (actor?.role !== 'admin' || actor.disabled) return 'not-admin' as const;
      const row = first(
        yield* q(
          tx
            .update(user)
            .set({ ...patch, updatedAt: new Date() })
            .where(eq(user.id, id))
            .returning(publicColumns),
        ),
      );
      if (row && patch.disabled) yield* q(tx.delete(session).where(eq(session.userId, id)));
      return row ?? ('gone' as const);
    },
    { immediate: true },
  );
}
