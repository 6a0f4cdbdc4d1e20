/**
 * `npm run db:copy`: a one-way copy of the SQLite database into an EMPTY Postgres (SPEC §7.5), so a team can move
 * to DATABASE_URL=postgres://… without losing history. The Postgres database is migrated first; every table is
 * copied in foreign-key order, in batches, inside ONE transaction (all or nothing), with the target's triggers
 * off (the copied updated_at and selected paths stay as they were); identity sequences are moved past the copied
 * ids; the counts are checked before commit and again after. The SQLite file is only read.
 *
 *   DATABASE_URL=postgres://user@host/db npm run db:copy [-- --from ./data/app.db] [--batch 500]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { z } from 'zod';
import { isPostgresUrl, openPostgres, type PgDb } from '@/db/client-pg';
import * as liteSchema from '@/db/schema';
import * as pgSchema from '@/db/schema-pg';
import { storableText } from '@/lib/stored-text';

export type CopyOptions = {
  /** The SQLite file (default: DATABASE_PATH, else ./data/app.db, as the app finds it). */
  from: string;
  /** postgres://… */
  to: string;
  /** Rows read and written per batch (also capped so a batch stays under Postgres's 65,535 parameters). */
  batchRows?: number;
  /** Where progress goes (default: stdout). */
  log?: (line: string) => void;
};

export type CopyResult = { tables: Array<{ table: string; rows: number }> };

/** Past this many bytes of row data a batch is sent even if it holds fewer rows (messages can be large). */
const BATCH_BYTES = 8 * 1024 * 1024;

type Pair = { name: string; table: string; lite: SQLiteTable; pg: PgTable };

/** The tables of db/schema-pg.ts, each after every table it refers to, paired with their db/schema.ts twin. */
export function tablesInForeignKeyOrder(): Pair[] {
  const pairs = new Map<string, Pair>();
  for (const [name, value] of Object.entries(pgSchema)) {
    if (!is(value, PgTable)) continue;
    const lite = (liteSchema as Record<string, unknown>)[name];
    if (!is(lite, SQLiteTable)) throw new Error(`db/schema.ts has no table ${name} to copy from`);
    pairs.set(getTableName(value), { name, table: getTableName(value), lite, pg: value });
  }
  const ordered: Pair[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (pair: Pair) => {
    if (state.get(pair.table) === 'done') return;
    if (state.get(pair.table) === 'visiting') throw new Error(`foreign keys form a cycle at ${pair.table}`);
    state.set(pair.table, 'visiting');
    for (const fk of getTableConfig(pair.pg).foreignKeys) {
      const target = getTableName(fk.reference().foreignTable);
      const parent = pairs.get(target);
      if (parent && target !== pair.table) visit(parent);
    }
    state.set(pair.table, 'done');
    ordered.push(pair);
  };
  for (const pair of [...pairs.values()].sort((a, b) => a.table.localeCompare(b.table))) visit(pair);
  return ordered;
}

/** The SQLite file must hold exactly the migrations of this code: older or newer, the columns would not match. */
function checkSource(sqlite: Database.Database, file: string): void {
  const journal = JSON.parse(
    readFileSync(join(process.cwd(), 'db', 'migrations', 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: unknown[];
  };
  const known = sqlite
    .prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'")
    .get();
  if (!known) throw new Error(`${file} is not an MCP Chat database (it has no migrations table).`);
  const { n } = sqlite.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number };
  if (n < journal.entries.length)
    throw new Error(
      `${file} is at migration ${n} of ${journal.entries.length}: start this version of the app once on it (it migrates on start), stop it, then copy.`,
    );
  if (n > journal.entries.length)
    throw new Error(
      `${file} was written by a newer version of the app (${n} migrations, this one knows ${journal.entries.length}).`,
    );
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

async function count(db: Pick<PgDb, 'execute'>, table: string): Promise<number> {
  const result = await db.execute<{ n: string }>(sql.raw(`select count(*) as n from ${quote(table)}`));
  return Number(result.rows[0]?.n ?? 0);
}

/** Postgres text cannot hold U+0000 (SQLite's can): it becomes U+FFFD in plain text columns (JSON keeps it escaped). */
function withoutNul(row: Record<string, unknown>, textColumns: string[]): number {
  let replaced = 0;
  for (const key of textColumns) {
    const value = row[key];
    if (typeof value === 'string' && value.includes('\u0000')) {
      row[key] = storableText(value);
      replaced++;
    }
  }
  return replaced;
}

export async function copySqliteToPostgres(options: CopyOptions): Promise<CopyResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const from = resolve(options.from);
  if (!existsSync(from)) throw new Error(`SQLite file not found: ${from}`);
  const sqlite = new Database(from, { readonly: true, fileMustExist: true });
  const pairs = tablesInForeignKeyOrder();
  let target: Awaited<ReturnType<typeof openPostgres>> | null = null;
  try {
    checkSource(sqlite, from);
    const lite = drizzleSqlite({ client: sqlite });
    log(`Migrating ${redact(options.to)} …`);
    target = await openPostgres(options.to, { max: 2 });
    const pg = target.db;

    // One read transaction: every table is read from the same snapshot, even if the app is still writing.
    sqlite.exec('BEGIN');
    const expected = new Map<string, number>();
    for (const pair of pairs)
      expected.set(
        pair.table,
        (sqlite.prepare(`select count(*) as n from ${quote(pair.table)}`).get() as { n: number }).n,
      );

    await pg.transaction(async (tx) => {
      // Locks every table against other writers until commit; the app's triggers would rewrite what is copied.
      for (const pair of pairs)
        await tx.execute(sql.raw(`alter table ${quote(pair.table)} disable trigger user`));
      const busy: string[] = [];
      for (const pair of pairs) {
        const n = await count(tx, pair.table);
        if (n > 0) busy.push(`${pair.table} (${n})`);
      }
      if (busy.length)
        throw new Error(
          `The target database is not empty: ${busy.join(', ')}. db:copy only fills an empty database.`,
        );

      for (const pair of pairs) {
        const columns = getTableColumns(pair.lite);
        const names = Object.keys(columns);
        const textColumns = names.filter((k) => columns[k]?.columnType === 'SQLiteText');
        const rowsPerBatch = Math.max(
          1,
          Math.min(options.batchRows ?? 500, Math.floor(60_000 / names.length)),
        );
        let last = Number.MIN_SAFE_INTEGER;
        let copied = 0;
        let nul = 0;
        for (;;) {
          const rows = lite
            .select({ ...columns, __rowid: sql<number>`rowid` })
            .from(pair.lite)
            .where(sql`rowid > ${last}`)
            .orderBy(sql`rowid`)
            .limit(rowsPerBatch)
            .all() as Array<Record<string, unknown> & { __rowid: number }>;
          if (!rows.length) break;
          last = rows[rows.length - 1]?.__rowid ?? last;
          let batch: Record<string, unknown>[] = [];
          let bytes = 0;
          const flush = async () => {
            if (!batch.length) return;
            await tx.insert(pair.pg).values(batch as never);
            copied += batch.length;
            batch = [];
            bytes = 0;
          };
          for (const { __rowid, ...row } of rows) {
            nul += withoutNul(row, textColumns);
            const size = JSON.stringify(row).length;
            if (bytes + size > BATCH_BYTES) await flush();
            batch.push(row);
            bytes += size;
          }
          await flush();
        }
        log(`  ${pair.table}: ${copied} rows${nul ? ` (U+0000 replaced by U+FFFD in ${nul} values)` : ''}`);
      }

      // Identity columns (audit_log.id): the next row gets an id past every copied one.
      const identities = await tx.execute<{ table_name: string; column_name: string }>(sql`
        select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and (is_identity = 'YES' or column_default like 'nextval(%')`);
      for (const { table_name, column_name } of identities.rows)
        await tx.execute(
          sql.raw(
            `select setval(pg_get_serial_sequence('${quote(table_name).replace(/'/g, "''")}', '${column_name.replace(/'/g, "''")}'),
              coalesce((select max(${quote(column_name)}) from ${quote(table_name)}), 0) + 1, false)`,
          ),
        );

      for (const pair of pairs)
        await tx.execute(sql.raw(`alter table ${quote(pair.table)} enable trigger user`));
      const wrong = await mismatches(tx, pairs, expected);
      if (wrong.length) throw new Error(`Counts differ after copying, nothing was kept: ${wrong.join(', ')}`);
    });
    sqlite.exec('COMMIT');

    // Checked again from outside the transaction: what was committed is what was read.
    const wrong = await mismatches(pg, pairs, expected);
    if (wrong.length) throw new Error(`Counts differ after commit: ${wrong.join(', ')}`);
    const tables = pairs.map((p) => ({ table: p.table, rows: expected.get(p.table) ?? 0 }));
    log(`Copied ${tables.reduce((s, t) => s + t.rows, 0)} rows in ${tables.length} tables; counts verified.`);
    return { tables };
  } finally {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    sqlite.close();
    await target?.close();
  }
}

async function mismatches(
  db: Pick<PgDb, 'execute'>,
  pairs: Pair[],
  expected: Map<string, number>,
): Promise<string[]> {
  const wrong: string[] = [];
  for (const pair of pairs) {
    const n = await count(db, pair.table);
    if (n !== expected.get(pair.table))
      wrong.push(`${pair.table}: ${n} in Postgres, ${expected.get(pair.table)} in SQLite`);
  }
  return wrong;
}

/** The address without its password, for printing. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the Postgres database';
  }
}

const Args = z.object({
  from: z.string().min(1),
  to: z
    .string()
    .refine(isPostgresUrl, 'DATABASE_URL (or --to) must be a postgres:// or postgresql:// address'),
  batch: z.coerce.number().int().min(1).max(10_000).default(500),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      batch: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log('Usage: DATABASE_URL=postgres://… npm run db:copy [-- --from ./data/app.db] [--batch 500]');
    return;
  }
  const parsed = Args.safeParse({
    from: values.from ?? (process.env.DATABASE_PATH || './data/app.db'),
    to: values.to ?? process.env.DATABASE_URL ?? '',
    batch: values.batch,
  });
  if (!parsed.success)
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  console.log(`Copying ${resolve(parsed.data.from)} into Postgres (one way: the SQLite file is only read).`);
  await copySqliteToPostgres({ from: parsed.data.from, to: parsed.data.to, batchRows: parsed.data.batch });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: Error) => {
    console.error(`db:copy failed: ${error.message}`);
    process.exitCode = 1;
  });
}
