import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { migratePostgres, openPostgres, type PgHandle } from '@/db/client-pg';
import { conversations, messages, user } from '@/db/schema-pg';
import { searchConversationsPg } from '@/db/search-pg';
import { tsQueryOf } from '@/db/search-text';
import { type PostgresServer, startPostgres } from '@/e2e/fixtures/postgres-server';

let server: PostgresServer;
let handle: PgHandle;
before(async () => {
  server = await startPostgres();
  handle = await openPostgres(server.url);
});
after(async () => {
  await handle?.close();
  await server?.stop();
});

const text = (t: string) => [{ type: 'text', text: t }];
const day = (n: number) => new Date(Date.UTC(2026, 0, n));

async function leafOf(id: string): Promise<string | null> {
  const [row] = await handle.db
    .select({ leaf: conversations.leafId })
    .from(conversations)
    .where(eq(conversations.id, id));
  return row?.leaf ?? null;
}

async function say(
  conversationId: string,
  id: string,
  role: 'user' | 'assistant',
  parentId: string | null,
  words: string,
  seq: number,
) {
  await handle.db
    .insert(messages)
    .values({ id, conversationId, role, parentId, parts: text(words), seq, createdAt: day(10 + seq) });
}

describe('Postgres migrations', () => {
  test('apply to a fresh database, and a second run has nothing to do', async () => {
    const tables = await handle.db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    assert.deepEqual(
      tables.rows.map((r) => r.table_name),
      [
        'account',
        'assistants',
        'audit_log',
        'conversations',
        'files',
        'mcp_oauth_clients',
        'mcp_servers',
        'mcp_tool_views',
        'mcp_tools',
        'mcp_user_secrets',
        'messages',
        'providers',
        'session',
        'settings',
        'shares',
        'tool_calls',
        'user',
        'verification',
      ],
    );
    await migratePostgres(handle.db, handle.pool);
    const applied = await handle.db.execute<{ n: string }>(
      sql`select count(*) as n from drizzle.__drizzle_migrations`,
    );
    // Every migration of the journal, once.
    const journal = JSON.parse(
      readFileSync(join(import.meta.dirname, 'migrations-pg/meta/_journal.json'), 'utf8'),
    );
    assert.equal(applied.rows[0]?.n, String(journal.entries.length));
  });

  test('defaults and JS types round-trip as on SQLite (Dates to the millisecond, JSON text verbatim)', async () => {
    await handle.db.insert(user).values({ id: 'types', name: 't', email: 'types@x.test' });
    const [row] = await handle.db.select().from(user).where(eq(user.id, 'types'));
    assert.ok(row?.createdAt instanceof Date);
    assert.equal(row?.emailVerified, false);
    assert.equal(row?.role, 'user');
    const at = new Date('2026-03-04T05:06:07.891Z');
    await handle.db.insert(conversations).values({
      id: 'types-c',
      userId: 'types',
      title: 't',
      allowedTools: ['b/x', 'a/y'],
      temperature: 0.7,
      updatedAt: at,
    });
    const [c] = await handle.db.select().from(conversations).where(eq(conversations.id, 'types-c'));
    assert.equal(c?.updatedAt.getTime(), at.getTime());
    assert.deepEqual(c?.allowedTools, ['b/x', 'a/y']);
    assert.deepEqual(c?.disabledTools, []);
    assert.equal(c?.temperature, 0.7, 'double precision, not a 4-byte real');
    // The JSON is kept as written (queries look for `"id":"…"` in it), not normalized as jsonb would.
    const raw = await handle.db.execute<{ t: string }>(
      sql`select allowed_tools::text as t from conversations where id = 'types-c'`,
    );
    assert.equal(raw.rows[0]?.t, '["b/x","a/y"]');
  });
});

describe('Postgres triggers', () => {
  before(async () => {
    await handle.db.insert(user).values({ id: 'u', name: 'u', email: 'u@x.test' });
    await handle.db.insert(conversations).values([
      { id: 'c', userId: 'u', title: 'Branches', createdAt: day(1), updatedAt: day(1) },
      { id: 'd', userId: 'u', title: 'Same ids elsewhere', createdAt: day(1), updatedAt: day(1) },
    ]);
  });

  test('a message written moves its conversation’s updated_at; a message rewritten moves it too', async () => {
    await say('c', 'q1', 'user', null, 'first question', 1);
    const [row] = await handle.db
      .select({ updatedAt: conversations.updatedAt })
      .from(conversations)
      .where(eq(conversations.id, 'c'));
    assert.equal(row?.updatedAt.getTime(), day(11).getTime(), 'updated_at = the message’s created_at');

    const before = Date.now() - 1000;
    await handle.db
      .update(messages)
      .set({ parts: text('first question, reworded') })
      .where(and(eq(messages.conversationId, 'c'), eq(messages.id, 'q1')));
    const [bumped] = await handle.db
      .select({ updatedAt: conversations.updatedAt })
      .from(conversations)
      .where(eq(conversations.id, 'c'));
    assert.ok((bumped?.updatedAt.getTime() ?? 0) > before, 'updating parts bumps updated_at to now');
  });

  test('the selected path follows the leaf rule of SQLite’s migration 0013', async () => {
    assert.equal(await leafOf('c'), 'q1', 'a user message always becomes the leaf');
    await say('c', 'a1', 'assistant', 'q1', 'answer one', 2);
    assert.equal(await leafOf('c'), 'a1', 'an answer to the leaf becomes the leaf');
    await say('c', 'a2', 'assistant', 'q1', 'answer two', 3);
    assert.equal(
      await leafOf('c'),
      'a2',
      'a new version of the answer at the leaf (a regenerate) becomes the leaf',
    );
    await say('c', 'q2', 'user', null, 'an edit of the first question', 4);
    assert.equal(await leafOf('c'), 'q2', 'an edit becomes the leaf');
    await say('c', 'a3', 'assistant', 'q1', 'a late answer on the branch left', 5);
    assert.equal(await leafOf('c'), 'q2', 'an answer to a branch left meanwhile stays beside it');
    await say('c', 'a4', 'assistant', 'q2', 'answer to the edit', 6);
    assert.equal(await leafOf('c'), 'a4');
  });

  test('message ids repeated in another conversation do not confuse the rule', async () => {
    await say('d', 'q1', 'user', null, 'other', 1);
    await say('d', 'a1', 'assistant', 'q1', 'other answer', 2);
    await say('d', 'a2', 'assistant', 'q1', 'other answer again', 3);
    assert.equal(await leafOf('d'), 'a2');
    assert.equal(await leafOf('c'), 'a4', 'the other conversation is untouched');
  });
});

describe('Postgres search', () => {
  before(async () => {
    await handle.db.insert(user).values([
      { id: 's', name: 's', email: 's@x.test' },
      { id: 't', name: 't', email: 't@x.test' },
    ]);
    await handle.db.insert(conversations).values([
      { id: 's1', userId: 's', title: 'Hello there', createdAt: day(1), updatedAt: day(1) },
      { id: 's2', userId: 't', title: 'Someone else', createdAt: day(1), updatedAt: day(1) },
    ]);
    await say('s1', 'm1', 'user', null, 'hi', 1);
    await say('s1', 'a1', 'assistant', 'm1', 'the zebra-quokka lives here', 2);
    await say('s2', 'x1', 'user', null, 'a quokka of my own', 1);
  });

  test('finds a word inside an answer, marks it, only in the own conversations', async () => {
    const [hit, ...rest] = await searchConversationsPg(handle.db, 's', 'quokka');
    assert.equal(rest.length, 0);
    assert.equal(hit?.id, 's1');
    assert.equal(hit?.messageId, 'a1');
    assert.ok(hit?.snippet.includes('\u0002quokka\u0003'), hit?.snippet);
    assert.ok(hit?.updatedAt instanceof Date);
    assert.equal(
      (await searchConversationsPg(handle.db, 's', 'QUOK'))[0]?.messageId,
      'a1',
      'by prefix, any case',
    );
    assert.equal(
      (await searchConversationsPg(handle.db, 's', 'zebra lives'))[0]?.messageId,
      'a1',
      'every word',
    );
    assert.equal((await searchConversationsPg(handle.db, 's', 'zebra giraffe')).length, 0);
    assert.deepEqual(
      (await searchConversationsPg(handle.db, 't', 'quokka')).map((h) => h.id),
      ['s2'],
      "another user's text is never found",
    );
  });

  test('titles match by substring; what a person types never becomes query syntax', async () => {
    const [hit] = await searchConversationsPg(handle.db, 's', 'hel');
    assert.equal(hit?.id, 's1');
    assert.equal(hit?.messageId, null);
    assert.equal((await searchConversationsPg(handle.db, 's', `"); DROP TABLE messages; --`)).length, 0);
    assert.equal((await searchConversationsPg(handle.db, 's', "quokka' | zebra:* & !")).length, 1);
    assert.equal(tsQueryOf('foo OR bar*'), "('foo':*) & ('OR':*) & ('bar':*)");
    assert.equal(tsQueryOf('snake_case'), "('snake' <-> 'case':*)");
    assert.equal(tsQueryOf('"; --'), null);
  });

  test('an updated message is re-indexed; text off the selected path is not found; deleting forgets', async () => {
    await handle.db
      .update(messages)
      .set({ parts: text('rewritten answer') })
      .where(and(eq(messages.conversationId, 's1'), eq(messages.id, 'a1')));
    assert.equal((await searchConversationsPg(handle.db, 's', 'quokka')).length, 0);
    assert.equal((await searchConversationsPg(handle.db, 's', 'rewritten'))[0]?.messageId, 'a1');
    await say('s1', 'a2', 'assistant', 'm1', 'a second version about otters', 3);
    assert.equal((await searchConversationsPg(handle.db, 's', 'otters'))[0]?.messageId, 'a2');
    assert.equal(
      (await searchConversationsPg(handle.db, 's', 'rewritten')).length,
      0,
      'a1 is off the path now',
    );
    await handle.db.delete(conversations).where(eq(conversations.id, 's1'));
    assert.equal((await searchConversationsPg(handle.db, 's', 'otters')).length, 0);
  });

  test('a message holding U+0000 or a lone surrogate is stored as written and still found', async () => {
    await handle.db
      .insert(conversations)
      .values({ id: 's3', userId: 's', title: 'Odd text', createdAt: day(1) });
    const odd = [
      { type: 'text', text: 'nul\u0000byte wombat' },
      { type: 'reasoning', text: 'x\u0000' },
      { type: 'text', text: 'lone\ud800half' },
    ];
    await handle.db
      .insert(messages)
      .values({ id: 'o1', conversationId: 's3', role: 'user', parts: odd, seq: 1 });
    const [row] = await handle.db
      .select({ parts: messages.parts })
      .from(messages)
      .where(and(eq(messages.conversationId, 's3'), eq(messages.id, 'o1')));
    assert.deepEqual(row?.parts, odd);
    const [hit] = await searchConversationsPg(handle.db, 's', 'wombat');
    assert.equal(hit?.messageId, 'o1');
    assert.equal((await searchConversationsPg(handle.db, 's', 'half'))[0]?.messageId, 'o1');
  });

  test('the search uses the GIN index', async () => {
    // One connection (a transaction) so the setting applies to the explain.
    const plan = await handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute<{ 'QUERY PLAN': string }>(sql`
        explain select 1 from messages
        where message_search_vector(parts) @@ to_tsquery('simple'::regconfig, 'quokka:*')`);
    });
    assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /messages_search_idx/);
  });
});

test('openPostgres reports every statement drizzle runs when asked', async () => {
  let statements = 0;
  const counted = await openPostgres(server.url, { migrate: false, onQuery: () => statements++ });
  try {
    await counted.db.select().from(user).limit(1);
    await counted.db.select().from(conversations).limit(1);
    assert.equal(statements, 2);
  } finally {
    await counted.close();
  }
});
