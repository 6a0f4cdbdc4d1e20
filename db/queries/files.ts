import 'server-only';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { first, lockStep, q, type Queryable, textContains, transaction } from '@/db/run';
import { files, messages, shares } from '@/db/tables';

export type FileRow = typeof files.$inferSelect;
/** A file's row to insert: its bytes are in the data folder already (app/_server/file-uploads.ts). */
export type NewFileRow = typeof files.$inferInsert;

export async function insertFile(db: Db, values: NewFileRow): Promise<FileRow> {
  const [row] = await db.insert(files).values(values).returning();
  return row as FileRow;
}

/** A file of this user; another user's file does not exist. */
export async function getOwnFile(db: Db, userId: string, id: string): Promise<FileRow | null> {
  return (
    first(
      await db
        .select()
        .from(files)
        .where(and(eq(files.id, id), eq(files.userId, userId))),
    ) ?? null
  );
}

export async function getFile(db: Db, id: string): Promise<FileRow | null> {
  return first(await db.select().from(files).where(eq(files.id, id))) ?? null;
}

/**
 * A user's oldest files uploaded before `before` that no message or share refers to (the sweep of files
 * never sent): files in use are not candidates, so they never hold the limit against newer unsent ones.
 */
export async function oldFilesOf(db: Db, userId: string, before: Date, limit: number): Promise<FileRow[]> {
  const inMessages = textContains(db, messages.parts, sql`'"/api/files/' || ${files.id} || '"'`);
  const inShares = textContains(db, shares.snapshot, sql`'"id":"' || ${files.id} || '"'`);
  return db
    .select()
    .from(files)
    .where(
      and(
        eq(files.userId, userId),
        lt(files.createdAt, before),
        sql`not exists (select 1 from ${messages} where ${inMessages})`,
        sql`not exists (select 1 from ${shares} where ${inShares})`,
      ),
    )
    .orderBy(asc(files.createdAt))
    .limit(limit);
}

/**
 * A transaction step for a message that refers to files: holds each one against
 * {@link deleteFileIfUnused} (the same per-file lock on Postgres; on SQLite a transaction runs alone)
 * until the transaction ends, and tells whether every one is still there and this user's. So a file
 * is either deleted before the message is stored (and the message is refused) or kept for it.
 */
export function* holdOwnFiles(
  tx: Queryable,
  userId: string,
  ids: readonly string[],
): Generator<PromiseLike<unknown>, boolean, unknown> {
  const unique = [...new Set(ids)].sort(); // one order for every transaction: no deadlock between two
  if (!unique.length) return true;
  for (const id of unique) yield* lockStep(tx, `file\n${id}`);
  const rows = yield* q(
    tx
      .select({ id: files.id })
      .from(files)
      .where(and(inArray(files.id, unique), eq(files.userId, userId))),
  );
  return rows.length === unique.length;
}

/**
 * Deletes a file's row unless a stored message (by its `url`) or a share (by its id) refers to it, as one
 * step; the deleted row, or null when it is gone already or still in use.
 */
export function deleteFileIfUnused(db: Db, id: string, url: string): Promise<FileRow | null> {
  return transaction(db, function* (tx) {
    yield* lockStep(tx, `file\n${id}`);
    const row = first(yield* q(tx.select().from(files).where(eq(files.id, id))));
    if (!row) return null;
    const inMessages = yield* q(
      tx
        .select({ one: sql`1` })
        .from(messages)
        .where(textContains(tx, messages.parts, `"${url}"`))
        .limit(1),
    );
    const inShares = yield* q(
      tx
        .select({ one: sql`1` })
        .from(shares)
        .where(textContains(tx, shares.snapshot, `"id":"${id}"`))
        .limit(1),
    );
    if (inMessages.length || inShares.length) return null;
    yield* q(tx.delete(files).where(eq(files.id, id)));
    return row;
  });
}

/** Whether any file row (of any user) still keeps this blob. */
export async function blobInUse(db: Db, sha256: string): Promise<boolean> {
  const rows = await db.select({ id: files.id }).from(files).where(eq(files.sha256, sha256)).limit(1);
  return rows.length > 0;
}

/** The blobs a user's files keep (to remove from disk what no other row keeps once the user is gone). */
export async function blobsOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectDistinct({ sha256: files.sha256 }).from(files).where(eq(files.userId, userId));
  return rows.map((r) => r.sha256);
}
