import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getTableColumns, getTableName, is, type Table } from 'drizzle-orm';
import { getTableConfig as pgConfig, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as pg from '@/db/schema-pg';
import * as lite from '@/db/schema';

// ── type level: `tsc` fails here when a table's rows differ in JS type between the two dialects ──
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Same<P extends Table, S extends Table> =
  Equal<P['$inferSelect'], S['$inferSelect']> extends true
    ? Equal<P['$inferInsert'], S['$inferInsert']>
    : false;
type Expect<T extends true> = T;
export type SchemasAgree = [
  Expect<Same<typeof pg.user, typeof lite.user>>,
  Expect<Same<typeof pg.session, typeof lite.session>>,
  Expect<Same<typeof pg.account, typeof lite.account>>,
  Expect<Same<typeof pg.verification, typeof lite.verification>>,
  Expect<Same<typeof pg.conversations, typeof lite.conversations>>,
  Expect<Same<typeof pg.assistants, typeof lite.assistants>>,
  Expect<Same<typeof pg.messages, typeof lite.messages>>,
  Expect<Same<typeof pg.settings, typeof lite.settings>>,
  Expect<Same<typeof pg.mcpServers, typeof lite.mcpServers>>,
  Expect<Same<typeof pg.toolCalls, typeof lite.toolCalls>>,
  Expect<Same<typeof pg.mcpTools, typeof lite.mcpTools>>,
  Expect<Same<typeof pg.mcpToolViews, typeof lite.mcpToolViews>>,
  Expect<Same<typeof pg.mcpUserSecrets, typeof lite.mcpUserSecrets>>,
  Expect<Same<typeof pg.mcpOauthClients, typeof lite.mcpOauthClients>>,
  Expect<Same<typeof pg.providers, typeof lite.providers>>,
  Expect<Same<typeof pg.shares, typeof lite.shares>>,
  Expect<Same<typeof pg.auditLog, typeof lite.auditLog>>,
  Expect<Same<typeof pg.files, typeof lite.files>>,
];
// Every table of one schema is in the other, under the same export name.
type PgTables = { [K in keyof typeof pg as (typeof pg)[K] extends Table ? K : never]: true };
type LiteTables = { [K in keyof typeof lite as (typeof lite)[K] extends Table ? K : never]: true };
export type SameTables = Expect<Equal<keyof PgTables, keyof LiteTables>>;

// ── run time: the SQL shape (names, nullability, defaults, keys, indexes, foreign keys) is the same ──
type Shape = {
  name: string;
  columns: Record<string, { property: string; notNull: boolean; hasDefault: boolean; primary: boolean }>;
  primaryKeys: string[][];
  unique: string[];
  indexes: Array<{ name: string; columns: string[]; unique: boolean }>;
  foreignKeys: Array<{ columns: string[]; to: string; toColumns: string[]; onDelete: string | undefined }>;
};

function shape(table: Table): Shape {
  const config = is(table, PgTable) ? pgConfig(table) : sqliteConfig(table as SQLiteTable);
  const columns: Shape['columns'] = {};
  for (const [property, column] of Object.entries(getTableColumns(table))) {
    columns[column.name] = {
      property,
      notNull: column.notNull,
      // An identity column and an AUTOINCREMENT rowid both fill themselves in.
      hasDefault: column.hasDefault || (column.primary && column.columnType === 'PgInteger'),
      primary: column.primary,
    };
  }
  return {
    name: getTableName(table),
    columns,
    primaryKeys: config.primaryKeys.map((k) => k.columns.map((c) => c.name)),
    unique: Object.values(getTableColumns(table))
      .filter((c) => c.isUnique)
      .map((c) => c.name)
      .sort(),
    indexes: config.indexes
      .map((i) => ({
        name: i.config.name ?? '',
        columns: i.config.columns.map((c) => ('name' in c ? String(c.name) : '?')),
        unique: i.config.unique,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    foreignKeys: config.foreignKeys
      .map((f) => {
        const ref = f.reference();
        return {
          columns: ref.columns.map((c) => c.name),
          to: getTableName(ref.foreignTable),
          toColumns: ref.foreignColumns.map((c) => c.name),
          onDelete: f.onDelete,
        };
      })
      .sort((a, b) => a.columns.join().localeCompare(b.columns.join())),
  };
}

test('every table of db/schema.ts has its exact mirror in db/schema-pg.ts', () => {
  const liteTables = Object.entries(lite).filter(([, v]) => is(v, SQLiteTable));
  const pgTables = Object.entries(pg).filter(([, v]) => is(v, PgTable));
  assert.deepEqual(pgTables.map(([k]) => k).sort(), liteTables.map(([k]) => k).sort());
  assert.equal(liteTables.length, 18);
  for (const [name, table] of liteTables) {
    const mirror = (pg as Record<string, unknown>)[name] as Table;
    assert.deepEqual(shape(mirror), shape(table as Table), `table ${name}`);
  }
});

test('db/migrations-pg is up to date with db/schema-pg.ts (npm run db:generate:pg has nothing to add)', async () => {
  const { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join, relative } = await import('node:path');
  const { execFileSync } = await import('node:child_process');
  const dir = mkdtempSync(join(tmpdir(), 'pg-generate-'));
  try {
    cpSync(join(process.cwd(), 'db', 'migrations-pg'), join(dir, 'out'), { recursive: true });
    const config = join(dir, 'drizzle.config.json');
    writeFileSync(
      config,
      // drizzle-kit reads both paths relative to the working directory.
      JSON.stringify({
        dialect: 'postgresql',
        schema: './db/schema-pg.ts',
        out: relative(process.cwd(), join(dir, 'out')),
      }),
    );
    const before = readdirSync(join(dir, 'out')).sort();
    const output = execFileSync(
      process.execPath,
      [join(process.cwd(), 'node_modules', 'drizzle-kit', 'bin.cjs'), 'generate', '--config', config],
      { encoding: 'utf8' },
    );
    assert.deepEqual(readdirSync(join(dir, 'out')).sort(), before, output);
    assert.match(output, /No schema changes/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
