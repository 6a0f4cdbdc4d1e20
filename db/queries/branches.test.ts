import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { openDatabase } from '@/db/client';
import { createConversationWithMessages, loadConversation } from '@/db/queries/conversations';
import { searchConversations } from '@/db/queries/conversation-search';
import { markUnansweredTurns } from '@/db/queries/cut-turns';
import { listMessagePage, listMessages, listMessageTree, selectedLeaf } from '@/db/queries/messages';
import { saveAssistantMessage, saveUserMessage } from '@/db/queries/message-writes';
import { selectVersion, siblingsOf } from '@/db/queries/message-tree';
import { user } from '@/db/schema';
import type { ChatPart } from '@/lib/schemas/chat';

const dir = mkdtempSync(join(tmpdir(), 'branches-'));
after(async () => rmSync(dir, { recursive: true, force: true }));
const text = (t: string): ChatPart[] => [{ type: 'text', text: t }];
const ids = (list: Array<{ id: string }>) => list.map((m) => m.id);

describe('the branches migration', () => {
  test('backfills every existing list as a chain in order and selects its newest message', async () => {
    const file = join(dir, 'old.db');
    // The schema as it was before branches: the migrations up to 0010 only.
    const oldMigrations = join(dir, 'migrations-0010');
    cpSync(join(process.cwd(), 'db', 'migrations'), oldMigrations, { recursive: true });
    const journalPath = join(oldMigrations, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
    const at = journal.entries.findIndex((e) => e.tag.endsWith('_branches'));
    assert.ok(at > 0, 'the branches migration is in the journal');
    journal.entries = journal.entries.slice(0, at);
    writeFileSync(journalPath, JSON.stringify(journal));
    const old = new Database(file);
    migrate(drizzle({ client: old }), { migrationsFolder: oldMigrations });
    old
      .prepare(
        "insert into user (id, name, email, email_verified, created_at, updated_at) values ('u', 'u', 'u@x.test', 0, 0, 0)",
      )
      .run();
    const insertConversation = old.prepare(
      "insert into conversations (id, user_id, title, created_at, updated_at) values (?, 'u', 't', 0, 0)",
    );
    const insertMessage = old.prepare(
      'insert into messages (id, conversation_id, role, parts, seq, created_at) values (?, ?, ?, ?, ?, 0)',
    );
    insertConversation.run('c1');
    insertConversation.run('c2');
    insertConversation.run('empty');
    // Written out of seq order on purpose: the chain follows seq, not rowid.
    for (const [id, c, seq] of [
      ['c1-2', 'c1', 2],
      ['c1-0', 'c1', 0],
      ['c2-0', 'c2', 0],
      ['c1-1', 'c1', 1],
      ['c1-3', 'c1', 3],
      ['c2-1', 'c2', 1],
    ] as const)
      insertMessage.run(id, c, seq % 2 ? 'assistant' : 'user', JSON.stringify(text(id)), seq);
    old.close();

    const { db, sqlite } = openDatabase(file);
    try {
      assert.deepEqual(
        (await listMessageTree(db, 'c1')).map((m) => [m.id, m.parentId]),
        [
          ['c1-0', null],
          ['c1-1', 'c1-0'],
          ['c1-2', 'c1-1'],
          ['c1-3', 'c1-2'],
        ],
      );
      assert.deepEqual(
        (await listMessageTree(db, 'c2')).map((m) => [m.id, m.parentId]),
        [
          ['c2-0', null],
          ['c2-1', 'c2-0'],
        ],
      );
      const leaves = sqlite.prepare('select id, leaf_id from conversations order by id').all();
      assert.deepEqual(leaves, [
        { id: 'c1', leaf_id: 'c1-3' },
        { id: 'c2', leaf_id: 'c2-1' },
        { id: 'empty', leaf_id: null },
      ]);
      assert.deepEqual(ids(await listMessages(db, 'c1')), ['c1-0', 'c1-1', 'c1-2', 'c1-3']);
      assert.deepEqual(await listMessages(db, 'empty'), []);
    } finally {
      sqlite.close();
    }
  });
});

describe('a conversation tree', () => {
  const { db, sqlite } = openDatabase(join(dir, 'tree.db'));
  after(async () => sqlite.close());
  db.insert(user).values({ id: 'u', name: 'u', email: 'u@x.test' }).run();
  const c = 'tree-1';
  const ask = (id: string, t: string, parentId?: string | null, isNew = false) =>
    saveUserMessage(db, {
      conversationId: c,
      userId: 'u',
      title: 't',
      model: null,
      isNew,
      modelChanged: false,
      message: { id, role: 'user', parts: text(t) },
      parentId,
    });
  const answer = (id: string, t: string, parentId: string) =>
    saveAssistantMessage(db, c, { id, role: 'assistant', parts: text(t) }, parentId);

  test('an edit adds a sibling; a regenerate adds an answer beside the old one; nothing is deleted', async () => {
    assert.equal(await ask('q1', 'capital of France?', null, true), 'appended');
    await answer('a1', 'Paris', 'q1');
    assert.equal(await ask('q2', 'and of Spain?', 'a1'), 'appended');
    await answer('a2', 'Madrid', 'q2');
    assert.deepEqual(ids(await listMessages(db, c)), ['q1', 'a1', 'q2', 'a2']);

    // Edit q1 mid-conversation: a new root beside it; the later messages stay in the old branch.
    assert.equal(await ask('q1b', 'capital of Italy?', null), 'appended');
    assert.deepEqual(ids(await listMessages(db, c)), ['q1b']);
    await answer('a1b', 'Rome', 'q1b');
    assert.deepEqual(ids(await listMessages(db, c)), ['q1b', 'a1b']);
    assert.deepEqual(await siblingsOf(db, c, ['q1b', 'a1b']), { q1b: ['q1', 'q1b'] });

    // Regenerate a1b: its question is kept and selected, the new answer is a sibling.
    assert.equal(await ask('q1b', 'capital of Italy?', 'whatever-not-checked'), 'unknown-parent');
    // Other text under a stored id is an edit sent wrong: refused, nothing written.
    assert.equal(await ask('q1b', 'capital of Spain?', null), 'changed');
    assert.equal((await listMessageTree(db, c)).length, 6);
    assert.equal(await ask('q1b', 'capital of Italy?', null), 'existing');
    assert.deepEqual(ids(await listMessages(db, c)), ['q1b']);
    await answer('a1c', 'Roma', 'q1b');
    assert.deepEqual(ids(await listMessages(db, c)), ['q1b', 'a1c']);
    assert.deepEqual((await listMessages(db, c))[0]?.parts, text('capital of Italy?'));
    assert.deepEqual(await siblingsOf(db, c, ['q1b', 'a1c']), { q1b: ['q1', 'q1b'], a1c: ['a1b', 'a1c'] });
    assert.equal((await listMessageTree(db, c)).length, 7);
  });

  test('an answer to a branch left meanwhile (its turn stopped by an edit) stays beside it; the edit stays selected', async () => {
    const d = 'tree-late';
    const say = (id: string, t: string, parentId: string | null, isNew = false) =>
      saveUserMessage(db, {
        conversationId: d,
        userId: 'u',
        title: 't',
        model: null,
        isNew,
        modelChanged: false,
        message: { id, role: 'user', parts: text(t) },
        parentId,
      });
    assert.equal(await say('l1', 'long question', null, true), 'appended');
    // The edit arrives while l1's answer is still being written…
    assert.equal(await say('l1b', 'edited question', null), 'appended');
    // …and the stopped answer is stored afterwards, as the answer to l1.
    await saveAssistantMessage(db, d, { id: 'la', role: 'assistant', parts: text('half an ans') }, 'l1');
    assert.equal(await selectedLeaf(db, d), 'l1b');
    await saveAssistantMessage(db, d, { id: 'lb', role: 'assistant', parts: text('fresh') }, 'l1b');
    assert.deepEqual(ids(await listMessages(db, d)), ['l1b', 'lb']);
    // A regenerate of lb (a new answer to l1b while lb ends the path) is selected.
    await saveAssistantMessage(db, d, { id: 'lc', role: 'assistant', parts: text('fresher') }, 'l1b');
    assert.deepEqual(ids(await listMessages(db, d)), ['l1b', 'lc']);
    assert.equal((await listMessageTree(db, d)).length, 5);
  });

  test('selecting a version follows its newest answers down, and the choice is stored', async () => {
    const branch = await selectVersion(db, c, 'q1');
    assert.deepEqual(ids(branch ?? []), ['q1', 'a1', 'q2', 'a2']);
    assert.equal(await selectedLeaf(db, c), 'a2');
    assert.deepEqual(ids((await loadConversation(db, 'u', c)).messages), ['q1', 'a1', 'q2', 'a2']);
    assert.deepEqual(ids((await selectVersion(db, c, 'a1b')) ?? []), ['a1b']);
    assert.deepEqual(ids(await listMessages(db, c)), ['q1b', 'a1b']);
    assert.equal(await selectVersion(db, c, 'nope'), null);
    assert.equal(await selectedLeaf(db, c), 'a1b');
  });

  test('pages walk up the selected path only', async () => {
    await selectVersion(db, c, 'q1');
    const newest = await listMessagePage(db, c, { limit: 2 });
    assert.deepEqual(ids(newest.messages), ['q2', 'a2']);
    assert.equal(newest.before, 'q2');
    const older = await listMessagePage(db, c, { limit: 2, before: newest.before });
    assert.deepEqual(ids(older.messages), ['q1', 'a1']);
    assert.equal(older.before, null);
  });

  test('search finds text on the selected path only', async () => {
    await selectVersion(db, c, 'q1');
    assert.equal((await searchConversations(db, 'u', 'Madrid'))[0]?.messageId, 'a2');
    assert.deepEqual(await searchConversations(db, 'u', 'Rome'), []);
    await selectVersion(db, c, 'q1b');
    assert.deepEqual(await searchConversations(db, 'u', 'Madrid'), []);
  });

  test('after a crash, an unanswered edit gets an interrupted answer, which ends the path', async () => {
    await selectVersion(db, c, 'q1');
    assert.equal(await ask('q2b', 'and of Portugal?', 'a1'), 'appended');
    assert.equal(await markUnansweredTurns(db, 'The server stopped.'), 1);
    const path = await listMessages(db, c);
    assert.deepEqual(ids(path).slice(0, 3), ['q1', 'a1', 'q2b']);
    assert.deepEqual(path[3]?.metadata, { interrupted: true, error: 'The server stopped.' });
    assert.equal(await markUnansweredTurns(db, 'again'), 0);
  });

  test('after a crash during a regenerate, the question gets another (interrupted) answer beside the old ones', async () => {
    await selectVersion(db, c, 'q1b');
    assert.equal(await ask('q1b', 'capital of Italy?', null), 'existing');
    assert.deepEqual(ids(await listMessages(db, c)), ['q1b']);
    assert.equal(await markUnansweredTurns(db, 'The server stopped.'), 1);
    const path = await listMessages(db, c);
    assert.equal(path.length, 2);
    assert.deepEqual(path[1]?.metadata, { interrupted: true, error: 'The server stopped.' });
    assert.equal((await siblingsOf(db, c, [path[1]?.id ?? '']))[path[1]?.id ?? '']?.length, 3);
    assert.equal(await markUnansweredTurns(db, 'again'), 0);
  });

  test('a copied tree keeps its branches and its selected path', async () => {
    await createConversationWithMessages(db, {
      id: 'copy-1',
      userId: 'u',
      title: 'copy',
      model: null,
      messages: [
        { id: 'x1', role: 'user', parts: text('one'), parentId: null },
        { id: 'y1', role: 'assistant', parts: text('two'), parentId: 'x1' },
        { id: 'x2', role: 'user', parts: text('one, edited'), parentId: null },
      ],
      leafId: 'y1',
    });
    assert.deepEqual(ids(await listMessages(db, 'copy-1')), ['x1', 'y1']);
    assert.deepEqual(await siblingsOf(db, 'copy-1', ['x1', 'y1']), { x1: ['x1', 'x2'] });
  });
});
