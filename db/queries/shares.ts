import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { changes, first } from '@/db/run';
import { shares, user } from '@/db/tables';
import { type PublicMessage, parseShareSnapshot } from '@/lib/schemas/share';

/** A share with its snapshot read back through the public allowlist (lib/schemas/share.ts). */
export type ShareRecord = Omit<typeof shares.$inferSelect, 'snapshot'> & { snapshot: PublicMessage[] };

export async function createShare(
  db: Db,
  values: Omit<typeof shares.$inferInsert, 'snapshot'> & { snapshot: PublicMessage[] },
): Promise<void> {
  await db.insert(shares).values(values);
}

/**
 * A share by its token alone — the public route. Unknown and revoked tokens are the same null, and so
 * are the links of an account an admin disabled (they work again when it is enabled).
 */
export async function getShareByToken(db: Db, token: string): Promise<ShareRecord | null> {
  const row = first(
    await db
      .select({ share: shares })
      .from(shares)
      .innerJoin(user, eq(user.id, shares.userId))
      .where(and(eq(shares.token, token), eq(user.disabled, false))),
  )?.share;
  return row ? { ...row, snapshot: parseShareSnapshot(row.snapshot) } : null;
}

export async function listUserShares(db: Db, userId: string) {
  return db
    .select({
      token: shares.token,
      conversationId: shares.conversationId,
      title: shares.title,
      includeToolDetails: shares.includeToolDetails,
      createdAt: shares.createdAt,
    })
    .from(shares)
    .where(eq(shares.userId, userId))
    .orderBy(desc(shares.createdAt));
}

export async function deleteShare(db: Db, userId: string, token: string): Promise<boolean> {
  return changes(await db.delete(shares).where(and(eq(shares.token, token), eq(shares.userId, userId)))) > 0;
}
