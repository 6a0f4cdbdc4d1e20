import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { openDatabase } from '@/db/client';
import { saveAssistantMessage, saveUserMessage } from '@/db/queries/message-writes';
import { user } from '@/db/schema';

let dir: string;
let handle: ReturnType<typeof openDatabase>;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'client-'));
  handle = openDatabase(join(dir, 'test.db'));
  handle.db.insert(user).values({ id: 'ann', name: 'Ann', email: 'ann@example.com' }).run();
});
after(() => {
  handle.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a statement is compiled once and reused by its SQL text', () => {
  const first = handle.sqlite.prepare('select id from user where id = ?');
  assert.equal(handle.sqlite.prepare('select id from user where id = ?'), first);
  assert.notEqual(handle.sqlite.prepare('select name from user where id = ?'), first);
});

test('the statement cache is bounded: past its cap the least recently used is dropped', () => {
  const first = handle.sqlite.prepare('select 0 as n');
  for (let i = 1; i <= 300; i++) handle.sqlite.prepare(`select ${i} as n`);
  const recent = handle.sqlite.prepare('select 300 as n');
  assert.equal(handle.sqlite.prepare('select 300 as n'), recent, 'a recent statement is still cached');
  assert.notEqual(handle.sqlite.prepare('select 0 as n'), first, 'the oldest was compiled again');
});

test('a reused statement comes back in its default mode, whatever the last caller set', () => {
  const raw = handle.sqlite.prepare('select id, name from user where id = ?').raw(true);
  assert.deepEqual(raw.get('ann'), ['ann', 'Ann']);
  assert.deepEqual(handle.sqlite.prepare('select id, name from user where id = ?').get('ann'), {
    id: 'ann',
    name: 'Ann',
  });
  // drizzle reads rows in raw mode and single values with get(): both still right through the cache.
  const query = () => handle.db.select({ id: user.id, name: user.name }).from(user).where(eq(user.id, 'ann'));
  assert.deepEqual(query().all(), [{ id: 'ann', name: 'Ann' }]);
  assert.deepEqual(query().values(), [['ann', 'Ann']]);
  assert.deepEqual(query().get(), { id: 'ann', name: 'Ann' });
});

test('chat turns through cached statements store every message in order', async () => {
  for (let turn = 0; turn < 3; turn++) {
    const outcome = await saveUserMessage(handle.db, {
      conversationId: 'conv-cache',
      userId: 'ann',
      title: 'cache',
      model: null,
      isNew: turn === 0,
      modelChanged: false,
      message: { id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: `question ${turn}` }] },
    });
    assert.equal(outcome, 'appended');
    await saveAssistantMessage(handle.db, 'conv-cache', {
      id: `a${turn}`,
      role: 'assistant',
      parts: [{ type: 'text', text: `answer ${turn}` }],
    });
  }
  const rows = handle.sqlite
    .prepare('select id, seq from messages where conversation_id = ? order by seq')
    .all('conv-cache');
  assert.deepEqual(
    rows,
    ['u0', 'a0', 'u1', 'a1', 'u2', 'a2'].map((id, seq) => ({ id, seq })),
  );
});
