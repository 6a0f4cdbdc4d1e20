import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Db, openDatabase } from '@/db/client';
import { loadConversation } from '@/db/queries/conversations';
import { changeMessage } from '@/db/queries/message-writes';
import { listMessagePage, listMessages } from '@/db/queries/messages';
import { getShareByToken } from '@/db/queries/shares';
import { conversations, shares, user } from '@/db/schema';

let dir: string;
let handle: ReturnType<typeof openDatabase>;
let db: Db;

const signature = 'hmac-of-the-approval';
const toolCall = (toolCallId: string | undefined) => ({
  type: 'dynamic-tool',
  toolName: 'files__read',
  toolCallId,
  state: 'output-available',
  input: {},
  output: 'text',
});

/** Rows written straight into the tables, as an older version, another SDK or a hand edit may leave them. */
const rows: Array<{ id: string; role: 'user' | 'assistant'; parts: unknown; metadata: unknown }> = [
  {
    id: 'm0',
    role: 'user',
    parts: [
      { type: 'text', text: 'hello' },
      { type: 'text', text: 42 },
    ],
    metadata: { createdAt: 'yesterday', imported: true },
  },
  {
    // AI SDK v4: tool calls as `tool-invocation` parts, a part kind the SDK no longer has.
    id: 'm1',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      {
        type: 'tool-invocation',
        toolInvocation: { state: 'result', toolCallId: 'c0', toolName: 'now', args: {}, result: 'noon' },
      },
      { type: 'text', text: 'It is noon.' },
    ],
    metadata: ['not', 'an', 'object'],
  },
  { id: 'm2', role: 'user', parts: [null, 3, { type: 'text' }], metadata: null },
  {
    id: 'm3',
    role: 'assistant',
    parts: [
      {
        type: 'dynamic-tool',
        toolName: 'files__delete',
        toolCallId: 'c1',
        state: 'approval-requested',
        input: { path: '/' },
        approval: { id: 'ap1', signature },
        toolMetadata: { server: 'files', tool: 'delete', since: 'v2' },
        callProviderMetadata: { openai: { itemId: 'x' } },
      },
      { ...toolCall('c3'), toolMetadata: { server: 7, tool: 'read' } },
      { ...toolCall(undefined), output: 'no id' },
      { ...toolCall('c2'), state: 'output-error' },
      { type: 'data-tool-progress', data: { progress: 1 } },
      { type: 'data-notice', data: { kind: 'step-limit', text: 'Reached the limit' } },
    ],
    metadata: { model: 'm', usage: { totalTokens: 'many', inputTokens: 3 }, interrupted: true, turn: 'kept' },
  },
];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stored-messages-'));
  handle = openDatabase(join(dir, 'test.db'));
  db = handle.db;
  db.insert(user).values({ id: 'alice', name: 'alice', email: 'alice@example.com' }).run();
  const now = new Date();
  db.insert(conversations)
    .values({ id: 'c-old-rows', userId: 'alice', title: 'old', createdAt: now, updatedAt: now })
    .run();
  rows.forEach((r, seq) => {
    handle.sqlite
      .prepare(
        'insert into messages (id, conversation_id, role, parts, metadata, parent_id, seq, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        r.id,
        'c-old-rows',
        r.role,
        JSON.stringify(r.parts),
        JSON.stringify(r.metadata),
        // A chain in order, as the branches migration leaves older rows.
        rows[seq - 1]?.id ?? null,
        seq,
        now.getTime(),
      );
  });
});

after(async () => {
  handle.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

test('stored rows are validated part by part: malformed and unknown parts are left out, never the message', async () => {
  const [m0, m1, m2, m3] = await listMessages(db, 'c-old-rows');
  assert.deepEqual(m0, {
    id: 'm0',
    role: 'user',
    parts: [{ type: 'text', text: 'hello' }],
    metadata: { createdAt: undefined, imported: true },
  });
  // The v4 part is dropped; the rest of the answer still renders and still reaches the model.
  assert.deepEqual(m1, {
    id: 'm1',
    role: 'assistant',
    parts: [{ type: 'step-start' }, { type: 'text', text: 'It is noon.' }],
  });
  assert.deepEqual(m2, { id: 'm2', role: 'user', parts: [] });
  // Dropped: a tool call with malformed metadata, one without an id, an error without its text, live progress.
  assert.deepEqual(
    m3?.parts.map((p) => p.type),
    ['dynamic-tool', 'data-notice'],
  );
  assert.equal(m3?.metadata?.interrupted, true);
  assert.deepEqual(m3?.metadata, {
    model: 'm',
    usage: { totalTokens: undefined, inputTokens: 3 },
    interrupted: true,
    turn: 'kept',
  });
});

test('what the SDK stored beyond the checked fields is kept: approval signatures, provider metadata', async () => {
  const tool = (await listMessages(db, 'c-old-rows'))[3]?.parts[0];
  assert.ok(tool?.type === 'dynamic-tool' && tool.state === 'approval-requested');
  assert.equal(tool.approval.signature, signature);
  assert.deepEqual(tool.callProviderMetadata, { openai: { itemId: 'x' } });
  assert.deepEqual(tool.toolMetadata, { server: 'files', tool: 'delete', since: 'v2' });
});

test('every read goes through the same validation: the turn load, the pages, the approval change', async () => {
  const all = await listMessages(db, 'c-old-rows');
  assert.deepEqual((await loadConversation(db, 'alice', 'c-old-rows')).messages, all);
  assert.deepEqual((await listMessagePage(db, 'c-old-rows', { limit: 2 })).messages, all.slice(2));
  const changed = await changeMessage(db, 'c-old-rows', 'm1', (m) => m);
  assert.deepEqual(changed, all[1]);
  // The row written back holds what was read.
  assert.deepEqual((await listMessages(db, 'c-old-rows'))[1], all[1]);
});

test('a share snapshot is read back through the public allowlist', async () => {
  const now = new Date();
  db.insert(shares)
    .values({
      token: 'tok-old-snapshot',
      conversationId: 'c-old-rows',
      userId: 'alice',
      title: 'old',
      snapshot: [
        { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'tool', server: 's', tool: 't', state: 'done', toolCallId: 'LEAK' },
            { type: 'tool', server: 's', tool: 't', state: 'running' },
            { type: 'text', text: 'ok' },
          ],
          imported: true,
          metadata: { model: 'LEAK' },
        },
        { role: 'system', parts: [{ type: 'text', text: 'LEAK' }] },
        { role: 'user', parts: [{ type: 'image', url: 'LEAK' }] },
      ],
      createdAt: now,
    })
    .run();
  const share = await getShareByToken(db, 'tok-old-snapshot');
  assert.deepEqual(share?.snapshot, [
    { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    {
      role: 'assistant',
      parts: [
        { type: 'tool', server: 's', tool: 't', state: 'done' },
        { type: 'text', text: 'ok' },
      ],
      imported: true,
    },
  ]);
  assert.ok(!JSON.stringify(share).includes('LEAK'));
});
