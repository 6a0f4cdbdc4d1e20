/**
 * `npm run db:copy` (scripts/db-copy.ts) copies a SQLite database into an empty real Postgres
 * (e2e/fixtures/postgres-server.ts): the source, with a row or more in every table, is built by
 * e2e/fixtures/sqlite-copy-source.ts; the copy must equal it row by row.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { eq, getTableColumns, is, sql, type Table } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { getTableConfig as getPgConfig, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as getLiteConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import pg from 'pg';
import { openPostgres, type PgHandle } from '@/db/client-pg';
import { buildSource, text } from '@/e2e/fixtures/sqlite-copy-source';
import * as pgSchema from '@/db/schema-pg';
import { searchConversationsPg } from '@/db/search-pg';
import { type PostgresServer, startPostgres } from '@/e2e/fixtures/postgres-server';
import { copySqliteToPostgres, tablesInForeignKeyOrder } from '@/scripts/db-copy';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'db-copy-'));
const file = join(dir, 'app.db');
let server: PostgresServer;
let target: PgHandle | null = null;

/** A second, empty database on the same server. */
async function createDatabase(name: string): Promise<string> {
  const admin = new pg.Client(server.url.replace(/\/app$/, '/postgres'));
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return server.url.replace(/\/app$/, `/${name}`);
}

/** The primary key of a row of `pair`, as text to sort by. */
function keyOf(table: Table, row: Record<string, unknown>): string {
  const config = is(table, PgTable) ? getPgConfig(table) : getLiteConfig(table as SQLiteTable);
  const columns = getTableColumns(table);
  const primary = config.primaryKeys[0]?.columns.map((c) => c.name) ?? [];
  const properties = Object.entries(columns)
    .filter(([, c]) => c.primary || primary.includes(c.name))
    .map(([k]) => k);
  return JSON.stringify(properties.map((k) => row[k]));
}

const byKey = (table: Table, rows: Record<string, unknown>[]) =>
  [...rows].sort((a, b) => keyOf(table, a).localeCompare(keyOf(table, b)));

async function rowsOfPg(db: PgHandle['db']) {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const { name, pg: table } of tablesInForeignKeyOrder())
    out[name] = byKey(table, await db.select().from(table));
  return out;
}

function rowsOfLite() {
  const sqlite = new Database(file, { readonly: true });
  try {
    const db = drizzleSqlite({ client: sqlite });
    const out: Record<string, Record<string, unknown>[]> = {};
    for (const { name, lite: table } of tablesInForeignKeyOrder())
      out[name] = byKey(table, db.select().from(table).all());
    return out;
  } finally {
    sqlite.close();
  }
}

before(async () => {
  server = await startPostgres();
  buildSource(file);
});
after(async () => {
  await target?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run db:copy', () => {
  test('copies every table row by row into an empty Postgres, keeping ids, dates, paths and JSON', async () => {
    const lines: string[] = [];
    const result = await copySqliteToPostgres({
      from: file,
      to: server.url,
      batchRows: 2,
      log: (l) => lines.push(l),
    });
    target = await openPostgres(server.url, { migrate: false });
    const source = rowsOfLite();
    for (const [name, rows] of Object.entries(source)) assert.ok(rows.length > 0, `the test fills ${name}`);
    assert.equal(result.tables.length, 18);
    // U+0000 cannot be Postgres text: in a plain text column it becomes U+FFFD (JSON keeps it escaped).
    const bob = source.user?.find((u) => u.id === 'bob');
    if (bob) bob.name = 'Bob \uFFFD Nul';
    const copied = await rowsOfPg(target.db);
    for (const name of Object.keys(source)) assert.deepEqual(copied[name], source[name], `table ${name}`);
    assert.ok(
      lines.some((l) => /^ {2}messages: 6 rows$/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^ {2}user: 2 rows \(U\+0000 replaced by U\+FFFD in 1 values\)$/.test(l)),
      lines.join('\n'),
    );
    assert.ok(lines.some((l) => /counts verified/.test(l)));

    // The copy did not let the triggers move the selected path or updated_at; they are back on afterwards.
    const [c1] = await target.db
      .select()
      .from(pgSchema.conversations)
      .where(eq(pgSchema.conversations.id, 'c1'));
    assert.equal(c1?.leafId, 'a1');
    assert.equal(c1?.updatedAt.toISOString(), '2026-03-01T12:34:56.789Z');
    await target.db.insert(pgSchema.messages).values({
      id: 'q2',
      conversationId: 'c1',
      parentId: 'a1',
      role: 'user',
      seq: 6,
      parts: text('and a bilby?'),
      createdAt: new Date('2026-04-01T00:00:00Z'),
    });
    const [after] = await target.db
      .select()
      .from(pgSchema.conversations)
      .where(eq(pgSchema.conversations.id, 'c1'));
    assert.equal(after?.leafId, 'q2');
    assert.equal(after?.updatedAt.toISOString(), '2026-04-01T00:00:00.000Z');

    // The identity sequence follows the largest copied id.
    const [audit] = await target.db
      .insert(pgSchema.auditLog)
      .values({ action: 'next', outcome: 'ok', kind: 'admin', lastAt: new Date() })
      .returning({ id: pgSchema.auditLog.id });
    assert.equal(audit?.id, 41);

    // Copied messages are searchable, on the selected path only.
    assert.equal((await searchConversationsPg(target.db, 'ann', 'marsupial'))[0]?.messageId, 'a1');
    assert.equal(
      (await searchConversationsPg(target.db, 'ann', 'numbat')).length,
      0,
      'q1b is off the selected path',
    );
  });

  test('refuses a target that is not empty, and changes nothing in it', async () => {
    await assert.rejects(
      copySqliteToPostgres({ from: file, to: server.url, log: () => {} }),
      /not empty: user \(2\)/,
    );
    const n = await target?.db.execute<{ n: string }>(sql`select count(*) as n from messages`);
    assert.equal(n?.rows[0]?.n, '7');
  });

  test('refuses a SQLite file the app has not fully migrated', async () => {
    const old = join(dir, 'old.db');
    const sqlite = new Database(old);
    sqlite.exec('create table __drizzle_migrations (id integer primary key, hash text, created_at numeric)');
    sqlite.exec("insert into __drizzle_migrations (hash, created_at) values ('x', 1)");
    sqlite.close();
    const url = await createDatabase('stale');
    await assert.rejects(
      copySqliteToPostgres({ from: old, to: url, log: () => {} }),
      /at migration 1 of \d+: start this version of the app once/,
    );
  });

  test('the npm script copies from --from into DATABASE_URL and prints the counts', async () => {
    const url = await createDatabase('cli');
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/db-copy.ts', '--from', file],
      { env: { ...process.env, DATABASE_URL: url } },
    );
    assert.match(stdout, /one way/);
    assert.match(stdout, /^ {2}audit_log: 3 rows$/m);
    assert.match(stdout, /Copied \d+ rows in 18 tables; counts verified\./);
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/db-copy.ts', '--from', file], {
      env: { ...process.env, DATABASE_URL: url },
    }).catch((error: { code: number; stderr: string }) => error);
    assert.equal((failed as { code: number }).code, 1);
    assert.match((failed as { stderr: string }).stderr, /db:copy failed: The target database is not empty/);
  });
});
