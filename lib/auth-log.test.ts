import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { authLogLine } from '@/lib/auth-log';

test("an auth log line names the database's failure, never the values the request brought", () => {
  const pg = Object.assign(new Error('duplicate key value violates unique constraint "user_email_unique"'), {
    code: '23505',
    detail: 'Key (email)=(bo@example.com) already exists.',
  });
  const query = new DrizzleQueryError('insert into "user" values ($1, $2)', ['Bo', 'bo@example.com'], pg);
  const line = authLogLine('error', 'Failed to create user', [query]);
  assert.equal(
    line,
    '[auth] error: Failed to create user Error: duplicate key value violates unique constraint "user_email_unique" (23505)',
  );
  assert.equal(
    authLogLine('error', 'x', [new DrizzleQueryError('select $1', ['secret'])]),
    '[auth] error: x a database query failed',
  );
  assert.equal(
    authLogLine('warn', 'Invalid password', [{ email: 'bo@example.com' }, 3]),
    '[auth] warn: Invalid password [object] 3',
  );
});
