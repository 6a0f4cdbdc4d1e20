import assert from 'node:assert/strict';
import { test } from 'node:test';
import { format } from 'node:util';
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { errorResponse } from '@/lib/http';
import { loggable } from '@/lib/loggable';

/** What console.error writes for these arguments, while `run` runs. */
async function logged(run: () => unknown): Promise<string> {
  const lines: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => lines.push(format(...args));
  try {
    await run();
  } finally {
    console.error = error;
  }
  return lines.join('\n');
}

/** A failed insert on Postgres as drizzle throws it: the query's parameters in it, the row in the cause's detail. */
function failedInsert(): Error {
  const cause = Object.assign(
    new Error('duplicate key value violates unique constraint "user_email_unique"'),
    {
      code: '23505',
      detail: 'Key (email)=(bo@example.com) already exists.',
    },
  );
  return new DrizzleQueryError(
    'insert into "user" ("name", "email") values ($1, $2)',
    ['Bo', 'bo@example.com'],
    cause,
  );
}

test('an unexpected database failure is logged with its SQL and the database’s words, not the values', async () => {
  const failure = failedInsert();
  assert.match(format(failure), /bo@example\.com/, 'the error as thrown names the value');
  const line = await logged(() => errorResponse(failure));
  assert.match(
    line,
    /\[http\] unexpected error .*DatabaseQueryError.*: Error: duplicate key value violates unique constraint "user_email_unique" \(23505\)/,
  );
  assert.match(line, /insert into "user" \("name", "email"\) values \(\$1, \$2\)/);
  assert.match(line, /loggable\.test\.ts/, 'with the stack');
  assert.doesNotMatch(line, /bo@example\.com/);
});

test('a failure on SQLite (the values are not in it) is logged as it is', () => {
  const db = drizzle(new Database(':memory:'));
  db.run(sql`create table t (email text unique)`);
  db.run(sql`insert into t values (${'bo@example.com'})`);
  let failure: unknown;
  try {
    db.run(sql`insert into t values (${'bo@example.com'})`);
  } catch (err) {
    failure = err;
  }
  assert.equal(loggable(failure), failure);
  assert.doesNotMatch(format(failure), /bo@example\.com/);
});

test('a Postgres error is logged without its detail; other errors as they are', () => {
  const pg = Object.assign(new Error('duplicate key value violates unique constraint "user_email_unique"'), {
    code: '23505',
    detail: 'Key (email)=(bo@example.com) already exists.',
  });
  const out = loggable(pg);
  assert.doesNotMatch(format(out), /bo@example\.com/);
  assert.match(format(out), /duplicate key value violates unique constraint "user_email_unique" \(23505\)/);
  const plain = new TypeError('fetch failed');
  assert.equal(loggable(plain), plain);
  assert.equal(loggable('text'), 'text');
});
