/**
 * Query code runs on SQLite and on Postgres (db/run.ts): awaited, never through the SQLite driver's
 * synchronous `.get()` / `.all()` / `.run()` or raw `db.all(sql…)`, which Postgres does not have. The types
 * cannot say so (the queries are typed against the SQLite schema), so this reads the sources.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

/** The only files that may speak to the SQLite driver directly. */
const SQLITE_ONLY = new Set(['db/run.ts', 'db/client.ts', 'db/migrate.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
}

test('no query outside db/run.ts and db/client.ts uses the SQLite-only synchronous API', () => {
  const chained = /\)\s*\.(get|all|run|values)\(\s*\)/g;
  const raw = /\b(db|tx|getDb\(\))\s*\.(get|all|run|values)\s*[<(]/g;
  const found: string[] = [];
  for (const file of ['app', 'lib', 'db'].flatMap(sources)) {
    if (SQLITE_ONLY.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const re of [chained, raw])
      for (const m of text.matchAll(re))
        found.push(`${file}:${text.slice(0, m.index).split('\n').length}: ${m[0].replace(/\s+/g, ' ')}`);
  }
  assert.deepEqual(found, []);
});
