import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Db, openDatabase } from '@/db/client';
import { listMessagePage, listMessages } from '@/db/queries/messages';
import { saveAssistantMessage, saveUserMessage } from '@/db/queries/message-writes';
import { user } from '@/db/schema';
import type { ChatPart } from '@/lib/schemas/chat';

let dir: string;
let handle: ReturnType<typeof openDatabase>;
let db: Db;
const text = (t: string): ChatPart[] => [{ type: 'text', text: t }];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'message-pages-'));
  handle = openDatabase(join(dir, 'test.db'));
  db = handle.db;
  db.insert(user).values({ id: 'alice', name: 'alice', email: 'alice@example.com' }).run();
  // c-long: 25 messages m0…m24 (user, assistant, …); c-other: 3 messages that must never show up in c-long's pages.
  for (const [conversationId, count] of [
    ['c-long', 25],
    ['c-other', 3],
  ] as const) {
    for (let i = 0; i < count; i++) {
      const message = {
        id: `${conversationId}-m${i}`,
        role: i % 2 ? ('assistant' as const) : ('user' as const),
        parts: text(`${conversationId} ${i}`),
      };
      if (message.role === 'user') {
        await saveUserMessage(db, {
          conversationId,
          userId: 'alice',
          title: conversationId,
          model: null,
          isNew: i === 0,
          modelChanged: false,
          message,
        });
      } else await saveAssistantMessage(db, conversationId, message);
    }
  }
});
after(async () => {
  handle.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

const ids = (page: { messages: Array<{ id: string }> }) =>
  page.messages.map((m) => m.id.replace('c-long-', ''));

describe('listMessagePage', () => {
  test('the first page is the newest messages, oldest first, with a cursor to the older ones', async () => {
    const page = await listMessagePage(db, 'c-long', { limit: 10 });
    assert.deepEqual(ids(page), ['m15', 'm16', 'm17', 'm18', 'm19', 'm20', 'm21', 'm22', 'm23', 'm24']);
    assert.equal(page.before, 'c-long-m15');
    assert.deepEqual(page.messages[0], { id: 'c-long-m15', role: 'assistant', parts: text('c-long 15') });
  });

  test('following the cursor walks back to the first message exactly once each, then says there is no more', async () => {
    const seen: string[] = [];
    let before: string | null | undefined;
    let pages = 0;
    do {
      const page = await listMessagePage(db, 'c-long', { limit: 10, before });
      seen.unshift(...ids(page));
      before = page.before;
      pages++;
    } while (before !== null);
    assert.equal(pages, 3);
    assert.deepEqual(
      seen,
      (await listMessages(db, 'c-long')).map((m) => m.id.replace('c-long-', '')),
    );
  });

  test('a page that ends exactly at the first message has no cursor; a short conversation fits one page', async () => {
    const last = await listMessagePage(db, 'c-long', { limit: 5, before: 'c-long-m5' });
    assert.deepEqual(ids(last), ['m0', 'm1', 'm2', 'm3', 'm4']);
    assert.equal(last.before, null);
    const short = await listMessagePage(db, 'c-other', { limit: 50 });
    assert.equal(short.messages.length, 3);
    assert.equal(short.before, null);
  });

  test('an unknown conversation or a cursor before the start gives an empty page', async () => {
    assert.deepEqual(await listMessagePage(db, 'nope', { limit: 10 }), { messages: [], before: null });
    assert.deepEqual(await listMessagePage(db, 'c-long', { limit: 10, before: 'c-long-m0' }), {
      messages: [],
      before: null,
    });
  });

  test('walks the path by primary key, one lookup per message, not a scan', async () => {
    const plan = handle.sqlite
      .prepare(
        'explain query plan select m.id from messages m where m.conversation_id = ? and m.id = (select parent_id from messages where conversation_id = ? and id = ?)',
      )
      .all('c-long', 'c-long', 'c-long-m15') as Array<{ detail: string }>;
    assert.match(plan.map((p) => p.detail).join('\n'), /USING INDEX sqlite_autoindex_messages_1/);
    assert.doesNotMatch(plan.map((p) => p.detail).join('\n'), /SCAN m\b/);
  });
});
