import 'server-only';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { files, messages, shares } from '@/db/schema';

export type FileRow = typeof files.$inferSelect;

export function insertFile(db: Db, values: typeof files.$inferInsert): FileRow {
  return db.insert(files).values(values).returning().get();
}

/** A file of this user; another user's file does not exist. */
export function getOwnFile(db: Db, userId: string, id: string): FileRow | null {
  return (
    db
      .select()
      .from(files)
      .where(and(eq(files.id, id), eq(files.userId, userId)))
      .get() ?? null
  );
}

export function getFile(db: Db, id: string): FileRow | null {
  return db.select().from(files).where(eq(files.id, id)).get() ?? null;
}

/** Whether any stored message still refers to the file (its URL appears in the message's parts). */
export function fileReferenced(db: Db, url: string): boolean {
  return Boolean(
    db
      .select({ one: sql`1` })
      .from(messages)
      .where(sql`instr(${messages.parts}, ${`"${url}"`}) > 0`)
      .limit(1)
      .get(),
  );
}

/** Whether a share's snapshot names the file (by id). */
export function fileShared(db: Db, id: string): boolean {
  return Boolean(
    db
      .select({ one: sql`1` })
      .from(shares)
      .where(sql`instr(${shares.snapshot}, ${`"id":"${id}"`}) > 0`)
      .limit(1)
      .get(),
  );
}

/**
 * A user's oldest files uploaded before `before` that no message or share refers to (the sweep of files
 * never sent): files in use are not candidates, so they never hold the limit against newer unsent ones.
 */
export function oldFilesOf(db: Db, userId: string, before: Date, limit: number): FileRow[] {
  return db
    .select()
    .from(files)
    .where(
      and(
        eq(files.userId, userId),
        lt(files.createdAt, before),
        sql`not exists (select 1 from ${messages} where instr(${messages.parts}, '"/api/files/' || ${files.id} || '"') > 0)`,
        sql`not exists (select 1 from ${shares} where instr(${shares.snapshot}, '"id":"' || ${files.id} || '"') > 0)`,
      ),
    )
    .orderBy(asc(files.createdAt))
    .limit(limit)
    .all();
}

export function deleteFileRow(db: Db, id: string): void {
  db.delete(files).where(eq(files.id, id)).run();
}

/** Whether any file row (of any user) still keeps this blob. */
export function blobInUse(db: Db, sha256: string): boolean {
  return Boolean(db.select({ id: files.id }).from(files).where(eq(files.sha256, sha256)).limit(1).get());
}

/** The blobs a user's files keep (to remove from disk what no other row keeps once the user is gone). */
export function blobsOfUser(db: Db, userId: string): string[] {
  return db
    .selectDistinct({ sha256: files.sha256 })
    .from(files)
    .where(eq(files.userId, userId))
    .all()
    .map((r) => r.sha256);
}
