/**
 * The Postgres side of the database (DATABASE_URL=postgres://…, SPEC §7.5): a pool, drizzle over it with
 * db/schema-pg.ts, and the migrations in db/migrations-pg. No 'server-only' here: `npm run db:copy` and tests
 * use it outside Next.js.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from '@/db/schema-pg';

export type PgDb = NodePgDatabase<typeof schema>;
export type PgHandle = { db: PgDb; pool: pg.Pool; close: () => Promise<void> };

/** True for a `postgres://` or `postgresql://` address. */
export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}

/** The Postgres migrations folder, found from the working directory (npm scripts run at the repo root). */
export function pgMigrationsFolder(): string {
  const folder = join(process.cwd(), 'db', 'migrations-pg');
  if (!existsSync(folder)) throw new Error(`Postgres migrations folder not found at ${folder}`);
  return folder;
}

/** Any fixed number: the advisory lock that lets one instance at a time migrate. */
const MIGRATION_LOCK = 0x6d637063; // "mcpc"

/**
 * Applies db/migrations-pg. Instances starting together take turns (a session advisory lock): the first
 * migrates, the others then find nothing left to do.
 */
export async function migratePostgres(db: PgDb, pool: pg.Pool): Promise<void> {
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(db, { migrationsFolder: pgMigrationsFolder() });
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    lock.release();
  }
}

type PoolOptions = {
  /** Most connections the pool opens (default 10). */
  max?: number;
  /** Called for every statement drizzle runs (benchmarks count them, as db/client.ts does for SQLite). */
  onQuery?: () => void;
};

/** A pool on `url` and drizzle over it, not connected yet (the first query connects) and not migrated. */
export function createPostgres(url: string, options: PoolOptions = {}): PgHandle {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  // An idle client whose server went away must not take the process down; the next query reports it.
  pool.on('error', (error) => {
    if (!pool.ending) console.error('[postgres] idle client error:', error.message);
  });
  const onQuery = options.onQuery;
  const db = drizzle({ client: pool, schema, ...(onQuery ? { logger: { logQuery: () => onQuery() } } : {}) });
  return { db, pool, close: () => pool.end() };
}

/** Opens a pool on `url` and, unless told not to, migrates the database. */
export async function openPostgres(
  url: string,
  options: PoolOptions & { migrate?: boolean } = {},
): Promise<PgHandle> {
  const { db, pool } = createPostgres(url, options);
  try {
    if (options.migrate !== false) await migratePostgres(db, pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { db, pool, close: () => pool.end() };
}
