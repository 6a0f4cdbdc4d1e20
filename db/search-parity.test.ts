import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openDatabase } from '@/db/client';
import { openPostgres, type PgHandle } from '@/db/client-pg';
import { searchConversations } from '@/db/queries/conversation-search';
import * as lite from '@/db/schema';
import * as pgSchema from '@/db/schema-pg';
import { searchConversationsPg } from '@/db/search-pg';
import { searchTextFunctionSql } from '@/db/search-text';
import { type PostgresServer, startPostgres } from '@/e2e/fixtures/postgres-server';

/** Answers that exercise FTS5's tokenizer and snippet: windows, sentences, punctuation, scripts, case, accents. */
const answers = [
  'one two three four five six seven eight nine ten eleven twelve thirteen fourteen quokka fifteen sixteen seventeen eighteen nineteen twenty twentyone twentytwo',
  'quokka at the start of a long sentence that goes on and on and on for many many words indeed yes',
  'short quokka',
  'Café au lait and naïve résumé',
  '東京タワー is tall; 数据库 works',
  "foo_bar baz-qux e-mail x.y@z.com 3.14 v2 can't",
  'First sentence here. Second one: a long run of words follows the colon and the quokka sits far away from every start of any sentence at all. Third.',
  'ÉCOLE Ärger ĐẠI HỌC Ελληνικά ΆΛΦΑ Москва Ёлка ŁÓDŹ straße — “quoted” «guillemets» 😀emoji😀 ①② x²',
  'tab\tseparated\nlines and e\u0301clair combining',
  '我喜欢吃苹果和香蕉，也喜欢西瓜。日本語のテキストです。2024年3月 买了 iPhone手机',
];
const queries = [
  'quokka',
  'quo',
  'QUOKKA',
  'cafe',
  'café',
  'CAFÉ',
  'resume',
  'naïve',
  '東京',
  '東京タワー',
  '数据',
  '据库',
  'タワー',
  '東京 tall',
  '苹果',
  '香蕉 西瓜',
  'テキスト',
  '3月',
  'iphone手机',
  '苹果 nothing',
  'foo',
  'bar',
  'foo_bar',
  'qux',
  'baz-qux',
  'mail',
  'z.com',
  '3',
  'can',
  't',
  'v2',
  'ecole',
  'école',
  'arger',
  'dai hoc',
  'ελληνικα',
  'ελληνικά',
  'άλφα',
  'москва',
  'елка',
  'ёлка',
  'lodz',
  'łódź',
  'strasse',
  'straße',
  'quoted',
  'guillemets',
  'emoji',
  'x',
  'eclair',
  'éclair',
  'separated lines',
  'sentence',
  'colon quokka',
  'second',
  'third',
  'T1',
  'nothing here',
  '',
];

const dir = mkdtempSync(join(tmpdir(), 'search-parity-'));
const sqlite = openDatabase(join(dir, 'app.db'));
let server: PostgresServer;
let pg: PgHandle;

before(async () => {
  server = await startPostgres();
  pg = await openPostgres(server.url);
  const person = { id: 'u', name: 'u', email: 'u@x.test' };
  sqlite.db.insert(lite.user).values(person).run();
  await pg.db.insert(pgSchema.user).values(person);
  for (const [i, text] of answers.entries()) {
    const at = new Date(Date.UTC(2026, 0, 1 + i));
    const conversation = { id: `c${i}`, userId: 'u', title: `T${i}`, createdAt: at, updatedAt: at };
    const rows = [
      {
        id: `q${i}`,
        conversationId: `c${i}`,
        role: 'user' as const,
        parentId: null,
        seq: 0,
        parts: [{ type: 'text', text: 'question' }],
        createdAt: at,
      },
      {
        id: `a${i}`,
        conversationId: `c${i}`,
        role: 'assistant' as const,
        parentId: `q${i}`,
        seq: 1,
        parts: [
          { type: 'reasoning', text: 'hidden' },
          { type: 'text', text },
        ],
        createdAt: at,
      },
    ];
    sqlite.db.insert(lite.conversations).values(conversation).run();
    await pg.db.insert(pgSchema.conversations).values(conversation);
    for (const row of rows) {
      sqlite.db.insert(lite.messages).values(row).run();
      await pg.db.insert(pgSchema.messages).values(row);
    }
  }
});
after(async () => {
  await pg?.close();
  await server?.stop();
  sqlite.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

test('Postgres search finds the same conversations, messages and snippets as SQLite FTS5', async () => {
  const shown = (hits: Array<{ id: string; messageId: string | null; snippet: string; updatedAt: Date }>) =>
    hits.map((h) => ({
      id: h.id,
      messageId: h.messageId,
      snippet: h.snippet,
      at: h.updatedAt.toISOString(),
    }));
  let found = 0;
  for (const q of queries) {
    const expected = shown(await searchConversations(sqlite.db, 'u', q));
    const actual = shown(await searchConversationsPg(pg.db, 'u', q));
    assert.deepEqual(actual, expected, `query ${JSON.stringify(q)}`);
    found += expected.length;
  }
  assert.ok(found > 40, `the queries find things (${found} hits)`);
  const chinese = await searchConversationsPg(pg.db, 'u', '西瓜');
  assert.deepEqual(
    chinese.map((h) => h.snippet),
    ['我喜欢吃苹果和香蕉，也喜欢\u0002西瓜\u0003。日本語のテキストです…'],
    'a Chinese word inside a sentence',
  );
});

test('the migration holds search_text() exactly as db/search-text.ts writes it', () => {
  const migration = readFileSync(join(process.cwd(), 'db', 'migrations-pg', '0000_baseline.sql'), 'utf8');
  assert.ok(migration.includes(searchTextFunctionSql()), 'regenerate the function into the migration');
});
