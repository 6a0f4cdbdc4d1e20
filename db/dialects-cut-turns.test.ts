/**
 * The start-up sweep of turns a stopped process cut, the same on both databases: which questions it
 * finds (through their index) and which answers it marks interrupted. Runs on SQLite, then again on a
 * real Postgres (db/dialect-harness.ts).
 */
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { test } from 'node:test';
import type { Db } from '@/db/client';
import { dialect, dialectHarness } from '@/db/dialect-harness';
import { isSqlite, rawRows, rawRun } from '@/db/run';
import { markUnansweredTurns, unansweredConversations, unansweredSince } from '@/db/queries/cut-turns';
import { changeMessage, saveAssistantMessage } from '@/db/queries/message-writes';
import { listMessages } from '@/db/queries/messages';
import { applyApprovals } from '@/lib/chat/approvals';
import type { ChatPart } from '@/lib/schemas/chat';

let db: Db;
const { ask, answer, rerunOnPostgres } = dialectHarness(import.meta.url, (opened) => {
  db = opened;
});

test(`${dialect}: an answer continued after its approvals, cut by a stopped process, is marked interrupted`, async (t) => {
  const call = (id: string, state: 'approval-requested' | 'output-available'): ChatPart =>
    ({
      type: 'dynamic-tool',
      toolName: 'files__delete',
      toolCallId: `call-${id}`,
      state,
      input: {},
      approval: { id, ...(state === 'output-available' && { approved: true }) },
      ...(state === 'output-available' && { output: 'deleted' }),
    }) as ChatPart;
  const c = 'approved-then-cut';
  // Gone after it, passed or not: the scenarios after it count every conversation.
  t.after(() => rawRun(db, sql`delete from conversations where id in (${c}, 'finished')`));
  assert.equal(await ask(c, 'q1', 'delete it', { parentId: null, isNew: true }), 'appended');
  // The answer asks first; the person approves one call and denies the other (as persistInput does);
  // then the process running the continued turn stops before that answer is stored again.
  await saveAssistantMessage(db, c, {
    id: 'a1',
    role: 'assistant',
    parts: [call('ok', 'approval-requested'), call('no', 'approval-requested')],
  });
  const approvals = [
    { id: 'ok', approved: true },
    { id: 'no', approved: false },
  ];
  await changeMessage(db, c, 'a1', (m) => ({ ...m, parts: applyApprovals(m.parts, approvals).parts }));
  // Beside it: a finished answer, and one a Stop cut (stored interrupted), in another conversation.
  assert.equal(await ask('finished', 'f1', 'delete it', { parentId: null, isNew: true }), 'appended');
  await saveAssistantMessage(db, 'finished', {
    id: 'f2',
    role: 'assistant',
    parts: [call('done', 'output-available')],
  });
  await saveAssistantMessage(
    db,
    'finished',
    {
      id: 'f3',
      role: 'assistant',
      parts: applyApprovals([call('stopped', 'approval-requested')], [{ id: 'stopped', approved: true }])
        .parts,
      metadata: { interrupted: true, createdAt: 1 },
    },
    'f1',
  );
  assert.equal(await markUnansweredTurns(db, 'stopped'), 1);
  const cut = (await listMessages(db, c)).at(-1);
  assert.equal(cut?.id, 'a1');
  assert.equal(cut?.metadata?.interrupted, true, 'its calls show as cancelled, not running');
  assert.equal(cut?.metadata?.error, 'stopped');
  assert.deepEqual(
    (await listMessages(db, 'finished')).map((m) => [m.id, m.metadata?.interrupted, m.metadata?.error]),
    [
      ['f1', undefined, undefined],
      ['f3', true, undefined],
    ],
  );
  assert.equal(await markUnansweredTurns(db, 'again'), 0);
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

rerunOnPostgres();
