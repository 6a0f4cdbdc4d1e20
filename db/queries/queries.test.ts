import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Db, openDatabase } from '@/db/client';
import {
  deleteConversation,
  getOwnConversation,
  listConversations,
  loadConversation,
  updateConversation,
} from '@/db/queries/conversations';
import { markUnansweredTurns } from '@/db/queries/cut-turns';
import { listMessages, listMessageTree } from '@/db/queries/messages';
import { saveAssistantMessage, saveUserMessage } from '@/db/queries/message-writes';
import { getSetting, getSettings, updateSettings } from '@/db/queries/settings';
import { countUsers, updateUser } from '@/db/queries/users';
import { session, user } from '@/db/schema';
import type { ChatPart } from '@/lib/schemas/chat';

let dir: string;
let db: Db;
let handle: ReturnType<typeof openDatabase>;
/** SQL statements run through this test database (the client's statement hook). */
const statementCount = () => handle.statements;
let sqlite: ReturnType<typeof openDatabase>['sqlite'];

function addUser(id: string) {
  db.insert(user)
    .values({ id, name: id, email: `${id}@example.com` })
    .run();
}
const text = (t: string): ChatPart[] => [{ type: 'text', text: t }];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'queries-'));
  handle = openDatabase(join(dir, 'test.db'));
  db = handle.db;
  sqlite = handle.sqlite;
  addUser('alice');
  addUser('bob');
});
after(async () => {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('database file', () => {
  test('is migrated, in WAL mode, with foreign keys and a busy timeout', async () => {
    assert.equal(sqlite.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(sqlite.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(sqlite.pragma('busy_timeout', { simple: true }), 5000);
    assert.equal(await countUsers(db), 2);
  });
});

describe('messages', () => {
  test('the first user message creates the conversation; answers append in order', async () => {
    const r = await saveUserMessage(db, {
      conversationId: 'conv-0001',
      userId: 'alice',
      title: 'Hello',
      isNew: true,
      modelChanged: false,
      model: 'm',
      message: { id: 'u1', role: 'user', parts: text('hi') },
    });
    assert.equal(r, 'appended');
    await saveAssistantMessage(db, 'conv-0001', {
      id: 'a1',
      role: 'assistant',
      parts: text('hello'),
      metadata: { usage: { totalTokens: 5 } },
    });
    await saveUserMessage(db, {
      conversationId: 'conv-0001',
      userId: 'alice',
      title: 'ignored',
      isNew: false,
      modelChanged: false,
      model: null,
      message: { id: 'u2', role: 'user', parts: text('more') },
    });
    const msgs = await listMessages(db, 'conv-0001');
    assert.deepEqual(
      msgs.map((m) => m.id),
      ['u1', 'a1', 'u2'],
    );
    assert.deepEqual(msgs[1]?.metadata, { usage: { totalTokens: 5 } });
    assert.equal((await getOwnConversation(db, 'alice', 'conv-0001'))?.title, 'Hello');
  });

  test('re-sending a stored user message (retry, regenerate) keeps it and everything after it', async () => {
    const r = await saveUserMessage(db, {
      conversationId: 'conv-0001',
      userId: 'alice',
      title: 'x',
      isNew: false,
      modelChanged: false,
      model: null,
      message: { id: 'u1', role: 'user', parts: text('hi') },
    });
    assert.equal(r, 'existing');
    // The selected path now ends at u1 (its new answer comes next); nothing was deleted or rewritten.
    const msgs = await listMessages(db, 'conv-0001');
    assert.deepEqual(
      msgs.map((m) => m.id),
      ['u1'],
    );
    assert.deepEqual(msgs[0]?.parts, text('hi'));
    assert.deepEqual(
      (await listMessageTree(db, 'conv-0001')).map((m) => [m.id, m.parentId]),
      [
        ['u1', null],
        ['a1', 'u1'],
        ['u2', 'a1'],
      ],
    );
  });

  test('a user message may not overwrite an answer', async () => {
    await saveAssistantMessage(db, 'conv-0001', { id: 'a9', role: 'assistant', parts: text('answer') });
    const r = await saveUserMessage(db, {
      conversationId: 'conv-0001',
      userId: 'alice',
      title: 'x',
      isNew: false,
      modelChanged: false,
      model: null,
      message: { id: 'a9', role: 'user', parts: text('evil') },
    });
    assert.equal(r, 'not-a-user-message');
    assert.deepEqual((await listMessages(db, 'conv-0001')).at(-1)?.parts, text('answer'));
  });

  test('saving an answer twice (same id) updates it in place', async () => {
    await saveAssistantMessage(db, 'conv-0001', {
      id: 'a9',
      role: 'assistant',
      parts: text('answer v2'),
      metadata: { interrupted: true },
    });
    const msgs = await listMessages(db, 'conv-0001');
    assert.equal(msgs.filter((m) => m.id === 'a9').length, 1);
    assert.deepEqual(msgs.at(-1)?.metadata, { interrupted: true });
  });
});

describe('conversations', () => {
  test('another user cannot read, rename or delete', async () => {
    assert.equal(await getOwnConversation(db, 'bob', 'conv-0001'), null);
    assert.equal(await updateConversation(db, 'bob', 'conv-0001', { title: 'pwned' }), null);
    assert.equal(await deleteConversation(db, 'bob', 'conv-0001'), false);
    assert.equal((await getOwnConversation(db, 'alice', 'conv-0001'))?.title, 'Hello');
  });

  test('list is newest first, paginated, each conversation exactly once', async () => {
    for (let i = 0; i < 7; i++) {
      await saveUserMessage(db, {
        conversationId: `page-${i}0000`,
        userId: 'bob',
        title: `t${i}`,
        isNew: true,
        modelChanged: false,
        model: null,
        message: { id: `m${i}`, role: 'user', parts: text('x') },
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listConversations(db, 'bob', { limit: 3, cursor });
      seen.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    assert.equal(seen.length, 7);
    assert.equal(new Set(seen).size, 7);
    assert.equal(seen[0], 'page-60000');
    assert.ok(!seen.includes('conv-0001'), "alice's conversation is not in bob's list");
  });

  test('delete removes the messages too', async () => {
    assert.equal(await deleteConversation(db, 'alice', 'conv-0001'), true);
    assert.deepEqual(await listMessages(db, 'conv-0001'), []);
  });
});

describe('settings and users', () => {
  test('settings default, then persist', async () => {
    assert.equal((await getSettings(db)).signupOpen, false);
    assert.equal((await getSettings(db)).maxSteps, 10);
    await updateSettings(db, { signupOpen: true });
    assert.equal(await getSetting(db, 'signupOpen'), true);
  });

  test('disabling a user ends their sessions', async () => {
    db.insert(user).values({ id: 'admin', name: 'admin', email: 'admin@example.com', role: 'admin' }).run();
    db.insert(session)
      .values({ id: 's1', token: 'tok', userId: 'bob', expiresAt: new Date(Date.now() + 60_000) })
      .run();
    const row = await updateUser(db, 'admin', 'bob', { disabled: true });
    assert.equal(typeof row === 'object' && row.disabled, true);
    assert.equal(db.select().from(session).all().length, 0);
  });
});

test('a settings PATCH changes only the keys it names', async () => {
  const { SettingsPatchSchema } = await import('@/lib/schemas/settings');
  await updateSettings(db, { maxSteps: 7 });
  await updateSettings(db, SettingsPatchSchema.parse({ signupOpen: false }));
  assert.equal((await getSettings(db)).maxSteps, 7);
  assert.deepEqual(SettingsPatchSchema.parse({ signupOpen: true }), { signupOpen: true });
});

describe('the chat turn path', () => {
  test('one read loads a conversation with its messages; a stranger only learns that it is not theirs', async () => {
    await saveUserMessage(db, {
      conversationId: 'turn-0001',
      userId: 'alice',
      title: 'T',
      isNew: true,
      modelChanged: false,
      model: null,
      message: { id: 'x1', role: 'user', parts: text('q') },
    });
    await saveAssistantMessage(db, 'turn-0001', { id: 'x2', role: 'assistant', parts: text('a') });
    const before = statementCount();
    const loaded = await loadConversation(db, 'alice', 'turn-0001');
    // The conversation, then its selected path (one recursive read).
    assert.equal(statementCount() - before, 2);
    assert.deepEqual(
      loaded.messages.map((m) => m.id),
      ['x1', 'x2'],
    );
    assert.deepEqual(await loadConversation(db, 'bob', 'turn-0001'), {
      row: null,
      takenByOther: true,
      messages: [],
    });
    assert.deepEqual(await loadConversation(db, 'bob', 'nope-0001'), {
      row: null,
      takenByOther: false,
      messages: [],
    });
  });

  test('a follow-up message is one insert, and it bumps the conversation to the top', async () => {
    const updated = (await loadConversation(db, 'alice', 'turn-0001')).row?.updatedAt.getTime() ?? 0;
    const before = statementCount();
    const outcome = await saveUserMessage(db, {
      conversationId: 'turn-0001',
      userId: 'alice',
      title: 'T',
      isNew: false,
      modelChanged: false,
      model: null,
      message: { id: 'x3', role: 'user', parts: text('again') },
    });
    assert.equal(outcome, 'appended');
    assert.equal(statementCount() - before, 1);
    assert.ok(((await loadConversation(db, 'alice', 'turn-0001')).row?.updatedAt.getTime() ?? 0) >= updated);
  });

  test("a new conversation cannot be created over someone else's id", async () => {
    const outcome = await saveUserMessage(db, {
      conversationId: 'turn-0001',
      userId: 'bob',
      title: 'mine',
      isNew: true,
      modelChanged: false,
      model: null,
      message: { id: 'b1', role: 'user', parts: text('hijack') },
    });
    assert.equal(outcome, 'not-yours');
    assert.ok(!(await loadConversation(db, 'alice', 'turn-0001')).messages.some((m) => m.id === 'b1'));
  });
});

test('after a crash, turns left without an answer get an empty answer marked interrupted', async () => {
  await saveUserMessage(db, {
    conversationId: 'crash-001',
    userId: 'alice',
    title: 'C',
    isNew: true,
    modelChanged: false,
    model: null,
    message: { id: 'c1', role: 'user', parts: text('are you there?') },
  });
  const marked = await markUnansweredTurns(db, 'The server stopped.');
  assert.ok(marked >= 1);
  const last = (await listMessages(db, 'crash-001')).at(-1);
  assert.equal(last?.role, 'assistant');
  assert.deepEqual(last?.metadata, { interrupted: true, error: 'The server stopped.' });
  assert.equal(await markUnansweredTurns(db, 'again'), 0, 'answered turns are left alone');
});
