// Applies migrations to DATABASE_PATH (CLI: `tsx db/migrate.ts`). The app also migrates on start.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';

const path = resolve(process.env.DATABASE_PATH || './data/app.db');
mkdirSync(dirname(path), { recursive: true });
const sqlite = new Database(path);
sqlite.pragma('journal_mode = WAL');
migrate(drizzle({ client: sqlite }), { migrationsFolder: join(process.cwd(), 'db', 'migrations') });
sqlite.close();
console.log(`migrated ${path}`);
