import { is, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { SQLiteDialect } from 'drizzle-orm/sqlite-core';
import type { Db } from '@/db/client';

/**
 * Running queries the same way on both dialects. The query code is written once, against the SQLite
 * schema's types, and runs on SQLite (better-sqlite3, synchronous underneath) or Postgres
 * (node-postgres, asynchronous): every query is awaited, never `.get()` / `.all()` / `.run()`, which
 * only SQLite has. A transaction body is a generator that yields its queries: on SQLite it runs to its
 * end synchronously inside one SQLite transaction (no other request's statement can slip in between,
 * as it could at an `await`), on Postgres each yielded query is awaited inside a real transaction.
 */

/** A database or a transaction of either dialect (typed as the SQLite one; see above). */
export type Queryable = Db;

/** Whether `db` (a database or a transaction) is SQLite. */
export function isSqlite(db: Queryable): boolean {
  return is((db as unknown as { dialect: unknown }).dialect, SQLiteDialect);
}

/** The first row of a query's rows (what `.get()` was), or undefined. */
export function first<T>(rows: readonly T[]): T | undefined {
  return rows[0];
}

/** How many rows an insert, update or delete changed, on either dialect. */
export function changes(result: unknown): number {
  const r = result as { changes?: number; rowCount?: number | null };
  return r.changes ?? r.rowCount ?? 0;
}

/** The rows of a raw SQL query. */
export async function rawRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  if (isSqlite(db)) return db.all<T>(query);
  const result = (await (db as unknown as { execute(q: SQL): Promise<{ rows: T[] }> }).execute(query)) as {
    rows: T[];
  };
  return result.rows;
}

/** Runs a raw SQL statement; how many rows it changed. */
export async function rawRun(db: Queryable, query: SQL): Promise<number> {
  if (isSqlite(db)) return changes(db.run(query));
  return changes(await (db as unknown as { execute(q: SQL): Promise<unknown> }).execute(query));
}

/** One step of a transaction body: yields a query, gets its result back (`const rows = yield* q(query)`). */
export function* q<T>(query: PromiseLike<T>): Generator<PromiseLike<T>, T, unknown> {
  return (yield query) as T;
}

type Body<T> = (tx: Queryable) => Generator<PromiseLike<unknown>, T, unknown>;

/** Executes a drizzle query builder of the SQLite dialect synchronously (what awaiting it would do). */
function runSqliteQuery(query: PromiseLike<unknown>): unknown {
  const builder = query as unknown as {
    _prepare?: () => { execute(): { sync(): unknown } };
    sync?: () => unknown;
  };
  // A builder's prepared query knows whether it returns rows ('all') or a run result ('run').
  if (typeof builder._prepare === 'function') return builder._prepare().execute().sync();
  if (typeof builder.sync === 'function') return builder.sync();
  throw new Error('transaction step is not a query of this database');
}

/** Drives a transaction body; `exec` runs one yielded query. */
function drive<T>(
  gen: Generator<PromiseLike<unknown>, T, unknown>,
  exec: (q: PromiseLike<unknown>) => unknown,
): T {
  let step = gen.next();
  for (;;) {
    if (step.done) return step.value;
    let result: unknown;
    try {
      result = exec(step.value);
    } catch (err) {
      step = gen.throw(err);
      continue;
    }
    step = gen.next(result);
  }
}

/**
 * Runs `body` in one transaction and resolves to what it returns; a throw rolls it back. On SQLite the
 * whole transaction has run by the time this returns (the promise is already settled). `immediate`
 * takes SQLite's write lock at the start (a read-then-write that another process must not interleave);
 * on Postgres the body locks the rows it reads for update instead.
 */
export async function transaction<T>(
  db: Queryable,
  body: Body<T>,
  options: { immediate?: boolean } = {},
): Promise<T> {
  if (isSqlite(db))
    return db.transaction((tx) => drive(body(tx as unknown as Queryable), runSqliteQuery), {
      behavior: options.immediate ? 'immediate' : 'deferred',
    });
  const pg = db as unknown as { transaction<R>(fn: (tx: unknown) => Promise<R>): Promise<R> };
  return pg.transaction(async (tx) => {
    const gen = body(tx as Queryable);
    let step = gen.next();
    for (;;) {
      if (step.done) return step.value;
      let result: unknown;
      try {
        result = await step.value;
      } catch (err) {
        step = gen.throw(err);
        continue;
      }
      step = gen.next(result);
    }
  });
}

/** `column`'s text contains `needle` (a value or SQL): instr on SQLite, strpos on Postgres (json as text). */
export function textContains(db: Queryable, column: SQLWrapper, needle: SQLWrapper | string): SQL {
  return isSqlite(db) ? sql`instr(${column}, ${needle}) > 0` : sql`strpos(${column}::text, ${needle}) > 0`;
}

/**
 * A transaction step that serialises transactions about the same `key` (a read-then-write such as
 * "count a repeat, else insert") on Postgres, where they run at once on other connections or instances:
 * a transaction-scoped advisory lock. On SQLite a transaction already runs alone (see above).
 */
export function* lockStep(tx: Queryable, key: string): Generator<PromiseLike<unknown>, void, unknown> {
  if (isSqlite(tx)) return;
  const pg = tx as unknown as { execute(q: SQL): PromiseLike<unknown> };
  yield* q(pg.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`));
}

/**
 * The `updatedAt` of a write to a row last written at `previous`: now, yet at least 1 ms later, so that
 * two writes in one millisecond are still two versions (edit forms send the one they read as If-Match).
 */
export const nextUpdatedAt = (previous: Date): Date => new Date(Math.max(Date.now(), previous.getTime() + 1));
