/**
 * Text that SQLite takes and Postgres refuses is stored all the same on both databases: U+0000 (which a
 * Postgres text column cannot hold) from a model, an MCP server or a user's first message, and a message
 * too long for a Postgres tsvector (its search reads a bounded prefix). Runs on SQLite, then again on a
 * real Postgres (db/dialect-harness.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '@/db/client';
import { builtinServer, dialect, dialectHarness, ids, text } from '@/db/dialect-harness';
import { listAudit, recordAudit } from '@/db/queries/audit';
import { searchConversations } from '@/db/queries/conversation-search';
import { createConversationWithMessages, getOwnConversation } from '@/db/queries/conversations';
import { createMcpServer } from '@/db/queries/mcp-servers';
import { listToolSettings, observeToolDefinitions, updateToolSetting } from '@/db/queries/mcp-tools';
import { changeMessage } from '@/db/queries/message-writes';
import { listMessages } from '@/db/queries/messages';
import { recentCalls, recordToolCall } from '@/db/queries/tool-calls';
import { SEARCH_TEXT_CHARS } from '@/db/search-text';
import { ConversationImportSchema } from '@/lib/schemas/conversations';
import { titleFrom } from '@/lib/title';

let db: Db;
const { ask, answer, rerunOnPostgres } = dialectHarness(import.meta.url, (opened) => {
  db = opened;
});

const textsOf = async (c: string) =>
  (await listMessages(db, c)).map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : p.type)).join());

test(`${dialect}: a first message holding NUL starts its conversation; the answer holding NUL is kept as written and found`, async () => {
  const pasted = 'pasted\u0000text about a wombat';
  // The title comes from the message (what the chat route does): NUL becomes a space there.
  assert.equal(titleFrom(pasted), 'pasted text about a wombat');
  assert.equal(
    await ask('nul', 'q1', pasted, { parentId: null, isNew: true, title: titleFrom(pasted) }),
    'appended',
  );
  await answer('nul', 'a1', 'You said: pasted\u0000text about a wombat', 'q1');
  // A follow-up (one statement on Postgres) and the answer rewritten as it streams on.
  assert.equal(await ask('nul', 'q2', 'and a\u0000numbat?'), 'appended');
  await answer('nul', 'a2', 'first\u0000');
  await changeMessage(db, 'nul', 'a2', (m) => ({ ...m, parts: text('first\u0000then\u0000platypus') }));
  assert.deepEqual(await textsOf('nul'), [
    pasted,
    'You said: pasted\u0000text about a wombat',
    'and a\u0000numbat?',
    'first\u0000then\u0000platypus',
  ]);
  assert.equal((await getOwnConversation(db, 'alice', 'nul'))?.title, 'pasted text about a wombat');
  // Found past the NUL, which the snippet shows as a space (on both databases).
  assert.deepEqual(
    (await searchConversations(db, 'alice', 'platypus')).map((h) => [h.id, h.messageId, h.snippet]),
    [['nul', 'a2', 'first then \u0002platypus\u0003']],
  );
});

test(`${dialect}: an imported conversation whose title holds NUL is stored, its messages as written`, async () => {
  const { title } = ConversationImportSchema.parse({
    title: 'Old\u0000chat',
    messages: [{ role: 'user', parts: text('q\u0000') }],
  });
  await createConversationWithMessages(db, {
    id: 'imported-nul',
    userId: 'alice',
    title,
    model: null,
    messages: [
      { id: 'i0', role: 'user', parts: text('q\u0000') },
      { id: 'i1', role: 'assistant', parts: text('a\u0000') },
    ],
  });
  assert.equal((await getOwnConversation(db, 'alice', 'imported-nul'))?.title, 'Old\uFFFDchat');
  assert.deepEqual(await textsOf('imported-nul'), ['q\u0000', 'a\u0000']);
});

test(`${dialect}: an MCP server's error holding NUL is logged with the tool call, U+FFFD in its place`, async () => {
  await recordToolCall(db, {
    conversationId: 'nul',
    server: 'odd',
    tool: 'echo',
    durationMs: 5,
    outcome: 'error',
    errorKind: 'tool',
    error: 'bad\u0000byte',
  });
  assert.deepEqual(
    (await recentCalls(db, 'odd')).map((c) => c.error),
    ['bad\uFFFDbyte'],
  );
  await recordAudit(db, {
    userId: 'alice',
    email: 'alice@example.com',
    action: 'mcp.app.call',
    target: 'odd/ec\u0000ho',
    outcome: 'failed',
    detail: 'the server said \u0000',
  });
  const [entry] = await listAudit(db, { kind: 'admin' });
  assert.deepEqual([entry?.target, entry?.detail], ['odd/ec\uFFFDho', 'the server said \uFFFD']);
});

test(`${dialect}: a tool whose name holds NUL is recorded with the server's others, and its setting applies`, async () => {
  const server = await createMcpServer(db, builtinServer('odd-names'));
  assert.ok(server);
  const defs = ['plain', 'odd\u0000name'].map((name) => ({
    name,
    description: `the ${name} tool`,
    inputSchema: { type: 'object' as const },
  }));
  assert.equal(await observeToolDefinitions(db, server.id, defs), true);
  assert.equal(await observeToolDefinitions(db, server.id, defs), false, 'seen before: nothing to write');
  const odd = defs[1] as (typeof defs)[number];
  assert.equal((await updateToolSetting(db, server.id, odd.name, { enabled: false }, odd))?.enabled, false);
  const rows = (await listToolSettings(db)).filter((r) => r.serverId === server.id);
  assert.deepEqual(rows.map((r) => [r.tool, r.enabled]).sort(), [
    ['odd\uFFFDname', false],
    ['plain', true],
  ]);
});

/** `n` distinct words of 12 characters, `prefix` first: about 13 bytes each in a tsvector. */
const distinctWords = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${i.toString(36).padStart(8, '0')}`).join(' ');

test(`${dialect}: a message whose text is too long for a tsvector is stored; search reads its first ${SEARCH_TEXT_CHARS} characters`, async () => {
  // ~2 MB of distinct words (Postgres's tsvector of the whole text would be ~2.5 MB, over its 1 MB).
  const long = `early ${distinctWords('word', 150_000)} lateword`;
  assert.ok(long.length > 1_500_000);
  assert.equal(await ask('long', 'l1', 'write a lot', { parentId: null, isNew: true }), 'appended');
  await answer('long', 'la', long, 'l1');
  // Rewritten (an answer saved again as it finishes), and brought along by an import.
  await changeMessage(db, 'long', 'la', (m) => ({ ...m, parts: text(`${long} `) }));
  await createConversationWithMessages(db, {
    id: 'long-import',
    userId: 'bob',
    title: 'imported',
    model: null,
    messages: [{ id: 'li', role: 'assistant', parts: text(long) }],
  });
  assert.deepEqual(ids(await listMessages(db, 'long')), ['l1', 'la']);
  assert.equal((await textsOf('long'))[1], `${long} `);
  assert.equal((await textsOf('long-import'))[0], long);
  const [hit, ...others] = await searchConversations(db, 'alice', 'early');
  assert.deepEqual([hit?.messageId, others], ['la', []]);
  assert.ok(hit?.snippet?.startsWith('\u0002early\u0003 word00000000 '), hit?.snippet ?? '');
  // Past the prefix: not searched, on either database.
  assert.deepEqual(await searchConversations(db, 'alice', 'lateword'), []);
  assert.deepEqual(await searchConversations(db, 'bob', 'lateword'), []);
});

rerunOnPostgres();
