/**
 * Conversations and messages behave the same on both databases: the message tree, the crash marker,
 * ownership and paging of conversation lists, search, and concurrent changes of one message. Runs on
 * SQLite, then again on a real Postgres (db/dialect-harness.ts).
 */
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { test } from 'node:test';
import type { Db } from '@/db/client';
import { dialect, dialectHarness, ids, text } from '@/db/dialect-harness';
import { rawRows } from '@/db/run';
import {
  allowToolsInConversation,
  changeConversation,
  deleteConversation,
  getOwnConversation,
  listConversations,
  setModelTitle,
  updateConversation,
} from '@/db/queries/conversations';
import { searchConversations } from '@/db/queries/conversation-search';
import { markUnansweredTurns } from '@/db/queries/cut-turns';
import { changeMessage, saveUserMessage } from '@/db/queries/message-writes';
import { listMessagePage, listMessages, selectedLeaf } from '@/db/queries/messages';
import { selectVersion, siblingsOf } from '@/db/queries/message-tree';
import { applyToggles } from '@/lib/tool-toggles';

let db: Db;
const { ask, answer, statements, rerunOnPostgres } = dialectHarness(import.meta.url, (opened) => {
  db = opened;
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

test(`${dialect}: a first message creates its conversation with it; a follow-up checks its parent; on Postgres each is one statement`, async () => {
  const before = statements();
  assert.equal(await ask('once', 'o1', 'first', { parentId: null, isNew: true }), 'appended');
  const first = statements() - before;
  await answer('once', 'oa1', 'an answer', 'o1');
  const beforeFollow = statements();
  assert.equal(await ask('once', 'o2', 'second', { parentId: 'oa1' }), 'appended');
  const followUp = statements() - beforeFollow;
  // Postgres: no transaction of four round trips (BEGIN, check or insert, insert, COMMIT) for these.
  if (dialect === 'postgres') assert.deepEqual([first, followUp], [1, 1]);
  assert.deepEqual(ids(await listMessages(db, 'once')), ['o1', 'oa1', 'o2']);
  const [row] = await rawRows<{ user_id: string; title: string; leaf_id: string }>(
    db,
    sql`select user_id, title, leaf_id from conversations where id = 'once'`,
  );
  assert.deepEqual({ ...row }, { user_id: 'alice', title: 'title of once', leaf_id: 'o2' });
  // A follow-up naming a parent that is not there: refused, and nothing is written.
  assert.equal(await ask('once', 'o3', 'lost', { parentId: 'nowhere' }), 'unknown-parent');
  assert.deepEqual(ids(await listMessages(db, 'once')), ['o1', 'oa1', 'o2']);
  // A first message naming a parent (its conversation was deleted meanwhile): refused, no conversation made.
  assert.equal(await ask('gone', 'g2', 'after delete', { parentId: 'g1', isNew: true }), 'unknown-parent');
  assert.equal(
    (await rawRows<{ id: string }>(db, sql`select id from conversations where id = 'gone'`)).length,
    0,
  );
  // Two users start the same new conversation id at once: one gets it, the other writes nothing.
  const outcomes = await Promise.all([
    ask('race', 'r-alice', 'mine', { parentId: null, isNew: true }),
    saveUserMessage(db, {
      conversationId: 'race',
      userId: 'bob',
      title: 'bob',
      model: null,
      isNew: true,
      modelChanged: false,
      message: { id: 'r-bob', role: 'user', parts: text('mine!') },
      parentId: null,
    }),
  ]);
  assert.deepEqual([...outcomes].sort(), ['appended', 'not-yours']);
  const owner = (
    await rawRows<{ user_id: string }>(db, sql`select user_id from conversations where id = 'race'`)
  )[0]?.user_id;
  assert.deepEqual(ids(await listMessages(db, 'race')), [owner === 'alice' ? 'r-alice' : 'r-bob']);
});

test(`${dialect}: two tabs switching different tools of one conversation at once both keep theirs`, async () => {
  await ask('tabs', 't1', 'tools', { isNew: true });
  // Each change reads what is stored when it runs: the later one sees the earlier one's result.
  const seen: string[][] = [];
  const switchOff = (tool: string) =>
    changeConversation(db, 'alice', 'tabs', (row) => {
      seen.push(row.disabledTools);
      const next = applyToggles(
        { servers: row.toolServers, disabledTools: row.disabledTools },
        [{ server: 'srv', tool, on: false }],
        ['srv', 'other'],
      );
      return { disabledTools: next.disabledTools, toolServers: next.servers };
    });
  const rows = await Promise.all([switchOff('a'), switchOff('b'), switchOff('c')]);
  assert.deepEqual([...((await getOwnConversation(db, 'alice', 'tabs'))?.disabledTools ?? [])].sort(), [
    'srv/a',
    'srv/b',
    'srv/c',
  ]);
  assert.deepEqual(
    seen.map((list) => list.length),
    [0, 1, 2],
  );
  assert.equal(rows.at(-1)?.disabledTools.length, 3, 'each answers the row as it stored it');
  // Not the user's: nothing read for them, nothing written.
  assert.equal(await changeConversation(db, 'bob', 'tabs', () => ({ disabledTools: [] })), null);
  assert.equal((await getOwnConversation(db, 'alice', 'tabs'))?.disabledTools.length, 3);
});

test(`${dialect}: two approvals that always allow different tools of one conversation at once both stay allowed`, async () => {
  await ask('allow', 'al1', 'tools', { isNew: true });
  await Promise.all(['srv/a', 'srv/b', 'srv/c'].map((ref) => allowToolsInConversation(db, 'allow', [ref])));
  await allowToolsInConversation(db, 'allow', ['srv/a']);
  assert.deepEqual([...((await getOwnConversation(db, 'alice', 'allow'))?.allowedTools ?? [])].sort(), [
    'srv/a',
    'srv/b',
    'srv/c',
  ]);
});

rerunOnPostgres();
