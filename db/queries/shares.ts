import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { shares } from '@/db/schema';

export type ShareRow = typeof shares.$inferSelect;

export function createShare(db: Db, values: typeof shares.$inferInsert): ShareRow {
  return db.insert(shares).values(values).returning().get();
}

/** A share by its token alone — the public route; unknown and revoked tokens are the same null. */
export function getShareByToken(db: Db, token: string): ShareRow | null {
  return db.select().from(shares).where(eq(shares.token, token)).get() ?? null;
}

export function listUserShares(db: Db, userId: string) {
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
    .orderBy(desc(shares.createdAt))
    .all();
}

export function deleteShare(db: Db, userId: string, token: string): boolean {
  return (
    db
      .delete(shares)
      .where(and(eq(shares.token, token), eq(shares.userId, userId)))
      .run().changes > 0
  );
}
