import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '@/db/client';
import { deleteConversation } from '@/db/queries/conversations';
import { ftsQuery, searchConversations } from '@/db/queries/conversation-search';
import { saveAssistantMessage, saveUserMessage } from '@/db/queries/message-writes';
import { user } from '@/db/schema';

const dir = mkdtempSync(join(tmpdir(), 'search-'));
const { db, sqlite } = openDatabase(join(dir, 'test.db'));
after(async () => {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

test('full-text search finds words inside answers, only in the own conversations, and forgets deleted ones', async () => {
  db.insert(user)
    .values([
      { id: 'u', name: 'u', email: 'u@x.test' },
      { id: 'v', name: 'v', email: 'v@x.test' },
    ])
    .run();
  await saveUserMessage(db, {
    conversationId: 'conv-1234',
    userId: 'u',
    title: 'Hello there',
    isNew: true,
    modelChanged: false,
    model: null,
    message: { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] },
  });
  await saveAssistantMessage(db, 'conv-1234', {
    id: 'a1',
    role: 'assistant',
    parts: [{ type: 'text', text: 'the zebra-quokka lives here' }],
  });

  const [hit, ...rest] = await searchConversations(db, 'u', 'quokka');
  assert.equal(rest.length, 0);
  assert.equal(hit?.messageId, 'a1');
  assert.ok(hit?.snippet.includes('\u0002quokka\u0003'));
  assert.equal(
    (await searchConversations(db, 'v', 'quokka')).length,
    0,
    "another user's text is never found",
  );
  assert.equal(
    (await searchConversations(db, 'u', 'hel'))[0]?.id,
    'conv-1234',
    'titles match too, by prefix',
  );
  assert.equal((await searchConversations(db, 'u', '"); DROP TABLE messages; --')).length, 0);

  await saveAssistantMessage(db, 'conv-1234', {
    id: 'a1',
    role: 'assistant',
    parts: [{ type: 'text', text: 'rewritten answer' }],
  });
  assert.equal((await searchConversations(db, 'u', 'quokka')).length, 0, 'an updated message is re-indexed');
  await deleteConversation(db, 'u', 'conv-1234');
  assert.equal((await searchConversations(db, 'u', 'rewritten')).length, 0);
});

test('a Chinese or Japanese word is found inside a run of text without spaces, and marked alone', async () => {
  await saveUserMessage(db, {
    conversationId: 'conv-cjk1',
    userId: 'u',
    title: '水果',
    isNew: true,
    modelChanged: false,
    model: null,
    message: { id: 'c1', role: 'user', parts: [{ type: 'text', text: '你最喜欢什么？' }] },
  });
  await saveAssistantMessage(db, 'conv-cjk1', {
    id: 'c2',
    role: 'assistant',
    parts: [{ type: 'text', text: '我喜欢吃苹果和香蕉。日本語のテキストです。Mixed 2024年3月 iPhone手机' }],
  });
  const found = async (q: string) =>
    (await searchConversations(db, 'u', q)).map((h) => [h.messageId, h.snippet]);
  assert.deepEqual(await found('香蕉'), [
    ['c2', '我喜欢吃苹果和\u0002香蕉\u0003。日本語のテキストです。Mixed 2024年3月…'],
  ]);
  assert.equal((await found('テキスト'))[0]?.[1]?.includes('\u0002テキスト\u0003'), true);
  assert.equal((await found('苹果 mixed'))[0]?.[0], 'c2', 'with other words: all of them');
  assert.deepEqual(await found('苹果 quokka'), []);
  assert.equal((await found('3月'))[0]?.[0], 'c2', 'digits beside Chinese');
  assert.equal((await found('iphone手机'))[0]?.[0], 'c2', 'ASCII case ignored');
  assert.deepEqual(await found('梨'), [], 'a character not there');
  assert.deepEqual(await searchConversations(db, 'v', '香蕉'), [], "another user's text is never found");
});

test('what a person types never becomes FTS syntax', async () => {
  assert.equal(ftsQuery('foo OR bar*'), '"foo"* "OR"* "bar"*');
  assert.equal(ftsQuery('"; --'), null);
  assert.equal(ftsQuery('苹果 OR 香蕉"*'), '"OR"*', 'Chinese words are substrings, not FTS terms');
});
