/**
 * Text that SQLite takes and Postgres refuses is stored all the same on both databases: a message too long for a
 * Postgres tsvector (its search reads a bounded prefix). Runs on SQLite, then again on a real Postgres
 * (db/dialect-harness.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '@/db/client';
import { dialect, dialectHarness, ids, text } from '@/db/dialect-harness';
import { searchConversations } from '@/db/queries/conversation-search';
import { createConversationWithMessages } from '@/db/queries/conversations';
import { changeMessage } from '@/db/queries/message-writes';
import { listMessages } from '@/db/queries/messages';
import { SEARCH_TEXT_CHARS } from '@/db/search-text';

let db: Db;
const { ask, answer, rerunOnPostgres } = dialectHarness(import.meta.url, (opened) => {
  db = opened;
});

const textsOf = async (c: string) =>
  (await listMessages(db, c)).map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : p.type)).join());

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
