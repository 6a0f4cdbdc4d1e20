import 'server-only';
import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { session, user } from '@/db/schema';

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

export function countUsers(db: Db): number {
  return db.select({ n: count() }).from(user).get()?.n ?? 0;
}

export function getUserById(db: Db, id: string): PublicUser | null {
  return db.select(publicColumns).from(user).where(eq(user.id, id)).get() ?? null;
}

export function listUsers(db: Db): PublicUser[] {
  return db.select(publicColumns).from(user).orderBy(desc(user.createdAt)).all();
}

/** Changes role or disabled; disabling ends every session of the user. */
export function updateUser(
  db: Db,
  id: string,
  patch: { role?: UserRow['role']; disabled?: boolean },
): PublicUser | null {
  return db.transaction((tx) => {
    const row = tx
      .update(user)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(user.id, id))
      .returning(publicColumns)
      .get();
    if (row && patch.disabled) tx.delete(session).where(eq(session.userId, id)).run();
    return row ?? null;
  });
}
