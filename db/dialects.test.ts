/**
 * The query layer behaves the same on both databases. This file runs its scenarios on the process's
 * database: SQLite normally; then, unless it already runs on Postgres, it runs itself again in a child
 * process with DATABASE_URL set to a fresh real Postgres (e2e/fixtures/postgres-server.ts), since the
 * tables a process queries are chosen when it starts (db/tables.ts).
 */
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Db, openDatabase, openPostgresDatabase } from '@/db/client';
import { isSqlite, rawRows, rawRun } from '@/db/run';
import { deleteUserAndData } from '@/db/queries/account';
import { countAudit, listAudit, recordAudit } from '@/db/queries/audit';
import {
  deleteConversation,
  getOwnConversation,
  listConversations,
  setModelTitle,
  updateConversation,
} from '@/db/queries/conversations';
import { searchConversations } from '@/db/queries/conversation-search';
import { deleteFileIfUnused, insertFile, oldFilesOf } from '@/db/queries/files';
import { createMcpServer, getMcpServerByName, upsertMcpServers } from '@/db/queries/mcp-servers';
import { listToolSettings, observeToolDefinitions, updateToolSetting } from '@/db/queries/mcp-tools';
import { markUnansweredTurns, unansweredConversations, unansweredSince } from '@/db/queries/cut-turns';
import { changeMessage, saveAssistantMessage, saveUserMessage } from '@/db/queries/message-writes';
import { listMessagePage, listMessages, selectedLeaf } from '@/db/queries/messages';
import { selectVersion, siblingsOf } from '@/db/queries/message-tree';
import { createProvider } from '@/db/queries/providers';
import { getSetting, getSettings, updateSettings } from '@/db/queries/settings';
import { countUsers } from '@/db/queries/users';
import { user, usesPostgres } from '@/db/tables';
import { startPostgres } from '@/e2e/fixtures/postgres-server';
import type { ChatPart } from '@/lib/schemas/chat';
import { McpServerConfigSchema } from '@/lib/schemas/mcp';

const dialect = usesPostgres ? 'postgres' : 'sqlite';
const text = (t: string): ChatPart[] => [{ type: 'text', text: t }];
const ids = (list: Array<{ id: string }>) => list.map((m) => m.id);

let db: Db;
let close: () => Promise<void>;
const dir = mkdtempSync(join(tmpdir(), 'dialects-'));

before(async () => {
  const handle = usesPostgres
    ? openPostgresDatabase(process.env.DATABASE_URL as string)
    : openDatabase(join(dir, 'app.db'));
  await handle.ready;
  db = handle.db;
  close = handle.close;
  for (const id of ['alice', 'bob'])
    await db.insert(user).values({ id, name: id, email: `${id}@example.com`, role: 'user' });
});
after(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

const ask = (c: string, id: string, t: string, opts: { parentId?: string | null; isNew?: boolean } = {}) =>
  saveUserMessage(db, {
    conversationId: c,
    userId: 'alice',
    title: `title of ${c}`,
    model: null,
    isNew: opts.isNew ?? false,
    modelChanged: false,
    message: { id, role: 'user', parts: text(t) },
    parentId: opts.parentId,
  });
const answer = (c: string, id: string, t: string, parentId?: string) =>
  saveAssistantMessage(db, c, { id, role: 'assistant', parts: text(t) }, parentId);

test(`${dialect}: settings and users round-trip with their types`, async () => {
  assert.equal(await countUsers(db), 2);
  assert.equal(await getSetting(db, 'signupOpen'), false);
  const next = await updateSettings(db, { signupOpen: true, maxSteps: 7 });
  assert.equal(next.signupOpen, true);
  assert.equal(await getSetting(db, 'signupOpen'), true);
  assert.equal((await getSettings(db)).maxSteps, 7);
});

test(`${dialect}: a conversation tree: versions, siblings, selection, pages, leaf, crash marker`, async () => {
  const c = 'tree';
  assert.equal(await ask(c, 'q1', 'capital of France?', { parentId: null, isNew: true }), 'appended');
  await answer(c, 'a1', 'Paris', 'q1');
  assert.equal(await ask(c, 'q2', 'and of Spain?'), 'appended');
  await answer(c, 'a2', 'Madrid');
  assert.deepEqual(ids(await listMessages(db, c)), ['q1', 'a1', 'q2', 'a2']);
  // An edit of the first question: a new root beside it (null parents are siblings on both databases).
  assert.equal(await ask(c, 'q1b', 'capital of Italy?', { parentId: null }), 'appended');
  assert.deepEqual(ids(await listMessages(db, c)), ['q1b']);
  assert.deepEqual(await siblingsOf(db, c, ['q1b']), { q1b: ['q1', 'q1b'] });
  assert.equal(await ask(c, 'q1b', 'capital of Spain?', { parentId: null }), 'changed');
  assert.equal(await ask(c, 'q9', 'x', { parentId: 'nope' }), 'unknown-parent');
  assert.deepEqual(ids((await selectVersion(db, c, 'q1')) ?? []), ['q1', 'a1', 'q2', 'a2']);
  assert.equal(await selectedLeaf(db, c), 'a2');
  const page = await listMessagePage(db, c, { limit: 2 });
  assert.deepEqual(ids(page.messages), ['q2', 'a2']);
  assert.equal(page.before, 'q2');
  assert.deepEqual(ids((await listMessagePage(db, c, { limit: 2, before: 'q2' })).messages), ['q1', 'a1']);
  // Questions left without an answer (a crash) get one marked interrupted: the new one on the selected
  // path, and the edit q1b in the other branch.
  assert.equal(await ask(c, 'q3', 'unanswered'), 'appended');
  assert.equal(await markUnansweredTurns(db, 'stopped'), 2);
  const last = (await listMessages(db, c)).at(-1);
  assert.equal(last?.role, 'assistant');
  assert.equal(last?.metadata?.interrupted, true);
  assert.equal(last?.metadata?.error, 'stopped');
});

test(`${dialect}: the cut-turn sweep finds only questions asked since its horizon, through their index`, async () => {
  assert.equal(await ask('old', 'o1', 'asked long ago', { parentId: null, isNew: true }), 'appended');
  assert.equal(await ask('new', 'n1', 'asked now', { parentId: null, isNew: true }), 'appended');
  await answer('new', 'na', 'answered', 'n1');
  assert.equal(await ask('new', 'n2', 'still unanswered'), 'appended');
  const longAgo = new Date(Date.now() - 3 * 24 * 3600 * 1000);
  await rawRun(
    db,
    sql`update messages set created_at = ${isSqlite(db) ? longAgo.getTime() : longAgo} where id = 'o1'`,
  );
  const since = new Date(Date.now() - 24 * 3600 * 1000);
  assert.deepEqual(await unansweredConversations(db, since), ['new']);
  assert.deepEqual((await unansweredConversations(db, new Date(longAgo.getTime() - 1000))).sort(), [
    'new',
    'old',
  ]);
  // The sweep's plan reads the recent questions by their partial index, not every message.
  const query = unansweredSince(db, since);
  if (isSqlite(db))
    assert.match(
      JSON.stringify(await rawRows(db, sql`explain query plan ${query}`)),
      /messages_user_created_idx/,
    );
  else {
    // Postgres picks a plan by the table's statistics (a tiny table is read whole): without the
    // sequential scan, it must be that index.
    await rawRun(db, sql`set enable_seqscan = off`);
    const plan = await rawRows(db, sql`explain ${query}`);
    await rawRun(db, sql`set enable_seqscan = on`);
    assert.match(JSON.stringify(plan), /messages_user_created_idx/);
  }
  await rawRun(db, sql`delete from conversations where id in ('old', 'new')`);
});

test(`${dialect}: another user's conversation id is refused; lists page by cursor; rename wins over a model title`, async () => {
  assert.equal(
    await saveUserMessage(db, {
      conversationId: 'tree',
      userId: 'bob',
      title: 'x',
      model: null,
      isNew: true,
      modelChanged: false,
      message: { id: 'b1', role: 'user', parts: text('mine?') },
    }),
    'not-yours',
  );
  for (let i = 0; i < 5; i++) await ask(`list-${i}`, `l${i}`, `list ${i}`, { isNew: true });
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof listConversations>> = await listConversations(db, 'alice', {
      limit: 2,
      cursor,
    });
    seen.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
  } while (cursor);
  assert.equal(seen.length, 6);
  assert.equal(new Set(seen).size, 6);
  await updateConversation(db, 'alice', 'list-0', { title: 'Mine', titleSource: 'user' });
  assert.equal(await setModelTitle(db, 'list-0', 'Model'), false);
  assert.equal(await setModelTitle(db, 'list-1', 'Model'), true);
  assert.equal((await getOwnConversation(db, 'alice', 'list-1'))?.title, 'Model');
  assert.equal(await getOwnConversation(db, 'bob', 'list-1'), null);
  assert.equal(await deleteConversation(db, 'bob', 'list-1'), false);
  assert.equal(await deleteConversation(db, 'alice', 'list-1'), true);
});

test(`${dialect}: search finds words on the selected path by prefix, only the user's own`, async () => {
  const hits = await searchConversations(db, 'alice', 'madr');
  assert.deepEqual(
    hits.map((h) => [h.id, h.messageId]),
    [['tree', 'a2']],
  );
  assert.deepEqual(await searchConversations(db, 'bob', 'madrid'), []);
  assert.deepEqual(await searchConversations(db, 'alice', '"); drop table messages; --'), []);
});

test(`${dialect}: two changes of one message at once both apply, one after the other (an approval answered once)`, async () => {
  await ask('approve', 'p1', 'run it', { isNew: true });
  const seen: string[][] = [];
  const change = (tag: string) =>
    changeMessage(db, 'approve', 'p1', (m) => {
      seen.push(m.parts.map((p) => (p.type === 'text' ? p.text : p.type)));
      return { ...m, parts: [...m.parts, { type: 'text', text: tag }] };
    });
  await Promise.all([change('first'), change('second')]);
  const parts = (await listMessages(db, 'approve'))[0]?.parts.map((p) => (p.type === 'text' ? p.text : ''));
  // Either may go first; the one after it saw its result: never both from the same stored state.
  const [, firstDone] = parts ?? [];
  assert.deepEqual([...(parts ?? [])].sort(), ['first', 'run it', 'second']);
  assert.deepEqual(seen, [['run it'], ['run it', firstDone]]);
});

test(`${dialect}: a tool's first setting and its first sighting at once: one row, the admin's choice kept`, async () => {
  const server = await createMcpServer(db, {
    name: 'tools-race',
    transport: 'builtin',
    allow: ['*'],
    scope: 'shared',
    userValues: [],
    builtin: 'time',
    enabled: true,
    timeoutMs: 60_000,
  });
  assert.ok(server);
  // An admin sets a tool's approval while the server's tool list (naming it for the first time)
  // is being recorded: on Postgres the two run on different connections, or instances.
  const defs = Array.from({ length: 20 }, (_, i) => ({
    name: `t${i}`,
    description: `tool ${i}`,
    inputSchema: { type: 'object' as const },
  }));
  await Promise.all([
    observeToolDefinitions(db, server.id, defs),
    ...defs.map((def) => updateToolSetting(db, server.id, def.name, { approval: 'auto' }, def)),
    observeToolDefinitions(db, server.id, defs),
  ]);
  const rows = (await listToolSettings(db)).filter((r) => r.serverId === server.id);
  assert.equal(rows.length, 20);
  assert.deepEqual(
    rows.map((r) => [r.approval, r.changed]),
    defs.map(() => ['auto', false]),
  );
});

test(`${dialect}: the same servers imported by several at once (instances starting with one servers file)`, async () => {
  const configs = ['imp-a', 'imp-b', 'imp-c'].map((name) =>
    McpServerConfigSchema.parse({ name, transport: 'http', url: `https://${name}.example.com/mcp` }),
  );
  const results = await Promise.all(Array.from({ length: 6 }, () => upsertMcpServers(db, configs)));
  // Each server is added once, by whichever came first; the others find it unchanged.
  assert.deepEqual(results.flatMap((r) => r.added).sort(), ['imp-a', 'imp-b', 'imp-c']);
  assert.equal(results.flatMap((r) => r.unchanged).length, 15);
  for (const c of configs) assert.equal((await getMcpServerByName(db, c.name))?.config.name, c.name);
});

/** Stores a new conversation's first message, referring to one file. */
const storeWithFile = (conversationId: string, userId: string, fileId: string) =>
  saveUserMessage(db, {
    conversationId,
    userId,
    title: 'with a file',
    model: null,
    isNew: true,
    modelChanged: false,
    message: {
      id: 'q',
      role: 'user',
      parts: [{ type: 'file', mediaType: 'text/plain', url: `/api/files/${fileId}` }],
    },
    files: [fileId],
  });

test(`${dialect}: files, audit, servers, providers and deleting an account`, async () => {
  const file = await insertFile(db, {
    id: 'f1',
    userId: 'alice',
    sha256: 'a'.repeat(64),
    name: 'a.png',
    mediaType: 'image/png',
    size: 3,
    createdAt: new Date(Date.now() - 86_400_000 * 2),
  });
  assert.equal(file.size, 3);
  assert.deepEqual(ids(await oldFilesOf(db, 'alice', new Date(), 10)), ['f1']);
  await ask('files', 'fm', 'with a file', { isNew: true });
  await changeMessage(db, 'files', 'fm', (m) => ({
    ...m,
    parts: [...m.parts, { type: 'file', mediaType: 'image/png', url: '/api/files/f1', filename: 'a.png' }],
  }));
  assert.deepEqual(await oldFilesOf(db, 'alice', new Date(), 10), []);
  assert.equal(await deleteFileIfUnused(db, 'f1', '/api/files/f1'), null, 'a message refers to it');
  await insertFile(db, {
    id: 'f2',
    userId: 'alice',
    sha256: 'b'.repeat(64),
    name: 'b',
    mediaType: 'text/plain',
    size: 1,
  });
  assert.equal((await deleteFileIfUnused(db, 'f2', '/api/files/f2'))?.id, 'f2');
  assert.equal(await deleteFileIfUnused(db, 'f2', '/api/files/f2'), null, 'gone already');

  // A message that refers to a file, stored while the file is deleted (the sweep of unsent files), 20
  // times at once (on Postgres: on many connections): either the file is kept for the message or the
  // message is refused; never a stored message whose file is gone.
  const raced = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const id = `race-file-${i}`;
      await insertFile(db, {
        id,
        userId: 'alice',
        sha256: 'c'.repeat(64),
        name: 'c',
        mediaType: 'text/plain',
        size: 1,
      });
      const url = `/api/files/${id}`;
      const [outcome, deleted] = await Promise.all([
        storeWithFile(`race-${i}`, 'alice', id),
        deleteFileIfUnused(db, id, url),
      ]);
      const stored = (await listMessages(db, `race-${i}`)).length;
      return { outcome, deleted: Boolean(deleted), stored };
    }),
  );
  for (const r of raced)
    assert.ok(
      (r.outcome === 'appended' && !r.deleted && r.stored === 1) ||
        (r.outcome === 'missing-file' && r.deleted && r.stored === 0),
      JSON.stringify(r),
    );
  // A file deleted (the sweep) after the message was checked, before it is stored: refused.
  await insertFile(db, {
    id: 'gone',
    userId: 'alice',
    sha256: 'd'.repeat(64),
    name: 'd',
    mediaType: 'text/plain',
    size: 1,
  });
  assert.equal((await deleteFileIfUnused(db, 'gone', '/api/files/gone'))?.id, 'gone');
  assert.equal(await storeWithFile('race-gone', 'alice', 'gone'), 'missing-file');
  // Another user's file is refused like a deleted one.
  assert.equal(await storeWithFile('race-bob', 'bob', 'f1'), 'missing-file');
  assert.equal(
    await getOwnConversation(db, 'bob', 'race-bob'),
    null,
    'a refused message leaves no conversation',
  );

  const denied = { userId: null, email: null, action: 'GET /x', target: null, outcome: 'denied' as const };
  await recordAudit(db, { ...denied, detail: 'one' });
  await recordAudit(db, { ...denied, detail: 'two' });
  assert.equal(await countAudit(db, 'anonymous'), 1);
  assert.equal((await listAudit(db, { kind: 'anonymous' }))[0]?.count, 2);
  // A flood at once (on Postgres: on many connections) still counts into one row.
  await Promise.all(Array.from({ length: 20 }, () => recordAudit(db, { ...denied, action: 'POST /flood' })));
  const flood = (await listAudit(db, { kind: 'anonymous' })).filter((e) => e.action === 'POST /flood');
  assert.deepEqual(
    flood.map((e) => e.count),
    [20],
  );

  const config = McpServerConfigSchema.parse({
    name: 'remote',
    transport: 'http',
    url: 'https://mcp.example.com/mcp',
    headers: { Authorization: 'Bearer canary' },
  });
  assert.ok(await createMcpServer(db, config));
  assert.equal(await createMcpServer(db, config), null, 'a taken name');
  assert.deepEqual(await upsertMcpServers(db, [config, { ...config, name: 'other' }]), {
    added: ['other'],
    updated: [],
    unchanged: ['remote'],
  });
  const stored = await getMcpServerByName(db, 'remote');
  assert.equal(stored?.config.transport === 'http' && stored.config.headers.Authorization, 'Bearer canary');
  assert.ok(await createProvider(db, { name: 'p', baseURL: 'https://api.example.com/v1', apiKey: 'k' }));
  assert.equal(await createProvider(db, { name: 'p', baseURL: 'https://api.example.com/v1' }), null);

  assert.equal(await deleteUserAndData(db, 'alice'), 'deleted');
  assert.equal(await getOwnConversation(db, 'alice', 'tree'), null);
  assert.equal(await deleteUserAndData(db, 'alice'), 'gone');
});

if (!usesPostgres)
  test('the same scenarios on a real Postgres (a child process with DATABASE_URL)', async () => {
    const pg = await startPostgres();
    try {
      const child = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--conditions=react-server',
          '--test',
          '--test-reporter=spec',
          'db/dialects.test.ts',
        ],
        // Without the parent runner's NODE_TEST_CONTEXT, the child reports as a run of its own.
        {
          env: { ...process.env, NODE_TEST_CONTEXT: undefined, DATABASE_URL: pg.url },
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
      assert.equal(child.status, 0, `${child.stdout}\n${child.stderr}`);
      assert.match(child.stdout, /postgres: a conversation tree/);
    } finally {
      await pg.stop();
    }
  });
