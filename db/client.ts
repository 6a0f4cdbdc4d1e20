import 'server-only';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { getEnv } from '@/lib/env';
import * as schema from '@/db/schema';

export type Db = BetterSQLite3Database<typeof schema>;
type Handle = { db: Db; sqlite: Database.Database; statements: number };

const g = globalThis as unknown as { __appDb?: Handle };

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
  const cache = new Map<string, Database.Statement>();
  const compile = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached) {
      // Most recently used last, so the oldest entry is the one dropped.
      cache.delete(source);
      cache.set(source, cached);
      if (cached.reader) cached.raw(false);
      return cached;
    }
    const statement = compile(source);
    cache.set(source, statement);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return statement;
  }) as typeof sqlite.prepare;
}

export function openDatabase(path: string): Handle {
  const sqlite = new Database(path);
  cacheStatements(sqlite);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const handle: Handle = { db: undefined as unknown as Db, sqlite, statements: 0 };
  handle.db = drizzle({
    client: sqlite,
    schema,
    logger: { logQuery: () => void handle.statements++ },
  });
  migrate(handle.db, { migrationsFolder: migrationsFolder() });
  return handle;
}

function handle(): Handle {
  g.__appDb ??= openDatabase(getEnv().DATABASE_PATH);
  return g.__appDb;
}

/** The one database handle of the process (cached on globalThis; migrated on first use). */
export function getDb(): Db {
  return handle().db;
}

/** How many SQL statements drizzle has run in this process (benchmarks read it). */
export function statementCount(): number {
  return handle().statements;
}
