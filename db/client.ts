import 'server-only';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { createPostgres, migratePostgres } from '@/db/client-pg';
import { LRUCache } from 'lru-cache';
import { attachSecrets, type DbSecrets } from '@/db/sealing';
import { sealStoredSecrets } from '@/db/queries/stored-secrets';
import { getEnv } from '@/lib/env';
import { ensurePrivateFile, restrictIfPresent } from '@/lib/private-files';
import { processState } from '@/lib/process-state';
import * as schema from '@/db/schema';

export type Db = BetterSQLite3Database<typeof schema>;
type Handle = {
  db: Db;
  statements: number;
  /**
   * Migrations and the data migration run at open (sealing stored secrets): on SQLite both have run by
   * the time open returns; on Postgres queries wait for this (databaseReady).
   */
  ready: Promise<unknown>;
  close: () => Promise<void>;
};
export type SqliteHandle = Handle & { sqlite: Database.Database };

declare module '@/lib/process-state' {
  interface OwnedSlots {
    db: Handle;
  }
}

/** The migrations folder, found from the working directory (npm scripts run at the repo root). */
function migrationsFolder(): string {
  const folder = join(process.cwd(), 'db', 'migrations');
  if (!existsSync(folder)) throw new Error(`Migrations folder not found at ${folder}`);
  return folder;
}

/** How many compiled statements are kept (the app runs a few dozen distinct ones). */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Keeps compiled statements by their SQL text. drizzle compiles every statement on every call, and
 * compiling an insert into `messages` also compiles the FTS and updated_at triggers it fires: that cost
 * ~1.3 ms per chat turn, more than running the statements. A cached statement is handed out in its
 * default mode (drizzle switches some to raw mode per call); none is ever iterated, so reuse is safe.
 */
function cacheStatements(sqlite: Database.Database): void {
  // Past the cap, the least recently used statement is dropped.
  const cache = new LRUCache<string, Database.Statement>({ max: STATEMENT_CACHE_SIZE });
  const compile = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached) {
      if (cached.reader) cached.raw(false);
      return cached;
    }
    const statement = compile(source);
    cache.set(source, statement);
    return statement;
  }) as typeof sqlite.prepare;
}

/** The database file and its WAL companions are readable by their owner only (0600). */
function restrictDatabaseFiles(path: string): void {
  for (const suffix of ['-wal', '-shm']) restrictIfPresent(`${path}${suffix}`);
}

/**
 * Opens, migrates and prepares a database: SQL migrations, then the data migration that seals secrets
 * stored in clear or under an old key. Without `secrets`, a key of this handle only is made up (a
 * scratch database whose secrets need not outlive it).
 */
export function openDatabase(path: string, secrets: DbSecrets = { key: randomBytes(32) }): SqliteHandle {
  // Created 0600 before SQLite opens it, so it is never readable by others, not even briefly.
  ensurePrivateFile(path);
  restrictDatabaseFiles(path);
  const sqlite = new Database(path);
  cacheStatements(sqlite);
  sqlite.pragma('journal_mode = WAL');
  restrictDatabaseFiles(path);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const handle: SqliteHandle = {
    db: undefined as unknown as Db,
    sqlite,
    statements: 0,
    ready: Promise.resolve(),
    close: async () => {
      sqlite.close();
    },
  };
  handle.db = drizzle({
    client: sqlite,
    schema,
    logger: { logQuery: () => void handle.statements++ },
  });
  migrate(handle.db, { migrationsFolder: migrationsFolder() });
  attachSecrets(handle.db, secrets);
  handle.ready = sealStoredSecrets(handle.db);
  return handle;
}

/**
 * Opens a Postgres database (DATABASE_URL): the pool connects on the first query; migrations (one
 * instance at a time) and the data migration run in the background, and `ready` says when they are done.
 */
export function openPostgresDatabase(url: string, secrets: DbSecrets = { key: randomBytes(32) }): Handle {
  const handle: Handle = {
    db: undefined as unknown as Db,
    statements: 0,
    ready: Promise.resolve(),
    close: async () => {},
  };
  const pg = createPostgres(url, { onQuery: () => void handle.statements++ });
  handle.db = pg.db as unknown as Db;
  handle.close = pg.close;
  attachSecrets(handle.db, secrets);
  handle.ready = migratePostgres(pg.db, pg.pool).then(() => sealStoredSecrets(handle.db));
  // Reported by databaseReady (the server's start awaits it); never an unhandled rejection.
  handle.ready.catch(() => {});
  return handle;
}

function handle(): Handle {
  return processState('db', () => {
    const env = getEnv();
    const secrets = { key: Buffer.from(env.ENCRYPTION_KEY, 'hex'), legacyAppSecret: env.AUTH_SECRET };
    return env.DATABASE_URL
      ? openPostgresDatabase(env.DATABASE_URL, secrets)
      : openDatabase(env.DATABASE_PATH, secrets);
  });
}

/** The one database handle of the process (lib/process-state.ts; migrated on first use). */
export function getDb(): Db {
  return handle().db;
}

/** Resolves once the database is migrated and its data migration has run (rejects with why it failed). */
export async function databaseReady(): Promise<Db> {
  const h = handle();
  await h.ready;
  return h.db;
}

/** How many SQL statements drizzle has run in this process (benchmarks read it). */
export function statementCount(): number {
  return handle().statements;
}
