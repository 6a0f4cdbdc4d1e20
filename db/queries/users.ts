import 'server-only';
import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { first, q, transaction } from '@/db/run';
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

/** Changes role or disabled; disabling ends every session of the user. */
export function updateUser(
  db: Db,
  id: string,
  patch: { role?: UserRow['role']; disabled?: boolean },
): Promise<PublicUser | null> {
  return transaction(db, function* (tx) {
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
    return row ?? null;
  });
}
