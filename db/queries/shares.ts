import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { shares } from '@/db/schema';
import { type PublicMessage, parseShareSnapshot } from '@/lib/schemas/share';

/** A share with its snapshot read back through the public allowlist (lib/schemas/share.ts). */
export type ShareRecord = Omit<typeof shares.$inferSelect, 'snapshot'> & { snapshot: PublicMessage[] };

export function createShare(
  db: Db,
  values: Omit<typeof shares.$inferInsert, 'snapshot'> & { snapshot: PublicMessage[] },
): void {
  db.insert(shares).values(values).run();
}

/** A share by its token alone — the public route; unknown and revoked tokens are the same null. */
export function getShareByToken(db: Db, token: string): ShareRecord | null {
  const row = db.select().from(shares).where(eq(shares.token, token)).get();
  return row ? { ...row, snapshot: parseShareSnapshot(row.snapshot) } : null;
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
