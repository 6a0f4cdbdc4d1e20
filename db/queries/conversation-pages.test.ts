import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Db, openDatabase } from '@/db/client';
import { listConversations } from '@/db/queries/conversations';
import { user } from '@/db/schema';

let dir: string;
let handle: ReturnType<typeof openDatabase>;
let db: Db;
const COUNT = 10_000;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'conversation-pages-'));
  handle = openDatabase(join(dir, 'test.db'));
  db = handle.db;
  for (const id of ['alice', 'bob'])
    db.insert(user)
      .values({ id, name: id, email: `${id}@example.com` })
      .run();
  const insert = handle.sqlite.prepare(
    'insert into conversations (id, user_id, title, created_at, updated_at) values (?, ?, ?, ?, ?)',
  );
  handle.sqlite.transaction(() => {
    // Conversations come in pairs sharing an updated_at, so the id tie-break of the cursor matters.
    for (let i = 0; i < COUNT; i++)
      insert.run(
        `a${String(i).padStart(5, '0')}`,
        'alice',
        `A ${i}`,
        1_000_000 + Math.floor(i / 2) * 1000,
        0,
      );
    for (let i = 0; i < 50; i++) insert.run(`b${i}`, 'bob', `B ${i}`, 1_000_000 + i * 1000, 0);
  })();
  handle.sqlite.exec('update conversations set updated_at = created_at');
});
after(async () => {
  handle.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('listConversations over 10,000 conversations (the history list)', () => {
  test('pages newest first; following the cursors lists every own conversation exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listConversations>> = await listConversations(db, 'alice', {
        limit: 100,
        cursor,
      });
      seen.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    assert.equal(seen.length, COUNT);
    assert.equal(new Set(seen).size, COUNT);
    assert.ok(seen.every((id) => id.startsWith('a')));
    assert.equal(seen[0], 'a09999');
    assert.equal(seen.at(-1), 'a00000');
  });

  test('a page (first or deep, by cursor) is an index range read: no scan, no sort', async () => {
    const plans = [
      "select id from conversations where user_id = 'alice' order by updated_at desc, id desc limit 31",
      "select id from conversations where user_id = 'alice' and (updated_at < 3000000 or (updated_at = 3000000 and id < 'a04000')) order by updated_at desc, id desc limit 31",
    ].map((q) =>
      (handle.sqlite.prepare(`explain query plan ${q}`).all() as Array<{ detail: string }>)
        .map((p) => p.detail)
        .join('\n'),
    );
    for (const plan of plans) {
      assert.match(plan, /USING (COVERING )?INDEX conversations_user_updated_idx/);
      assert.doesNotMatch(plan, /TEMP B-TREE|SCAN conversations/);
    }
  });
});
