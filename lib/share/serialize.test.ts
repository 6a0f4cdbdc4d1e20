import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage } from '@/lib/schemas/chat';
import { serializeForShare } from '@/lib/share/serialize';
import { newShareToken, SHARE_TOKEN } from '@/lib/share/token';

const conversation: ChatMessage[] = [
  { id: 'sys', role: 'system', parts: [{ type: 'text', text: 'SYSTEM-CANARY' }] },
  {
    id: 'u1',
    role: 'user',
    parts: [
      { type: 'text', text: 'hello' },
      { type: 'file', url: 'data:x', mediaType: 'text/plain' },
    ],
    metadata: { model: 'a@b.c' },
  },
  {
    id: 'a1',
    role: 'assistant',
    metadata: { usage: { totalTokens: 99 }, model: 'gpt-x', error: 'ERR-CANARY' },
    parts: [
      { type: 'step-start' },
      { type: 'reasoning', text: 'REASONING-CANARY' },
      {
        type: 'dynamic-tool',
        toolName: 'files__read',
        toolCallId: 'call_ID_CANARY',
        state: 'output-available',
        input: { path: 'ARG-CANARY' },
        output: { content: [{ type: 'text', text: 'RESULT-CANARY' }] },
        toolMetadata: { server: 'files', tool: 'read' },
      },
      { type: 'data-notice', data: { kind: 'step-limit', text: 'NOTICE' } },
      { type: 'text', text: 'done' },
    ],
  },
];

test('by default a share holds message text and "used server.tool", nothing else', () => {
  const out = serializeForShare(conversation, { includeToolDetails: false });
  const json = JSON.stringify(out);
  for (const canary of [
    'SYSTEM-CANARY',
    'ARG-CANARY',
    'RESULT-CANARY',
    'call_ID_CANARY',
    'REASONING-CANARY',
    'ERR-CANARY',
    'a@b.c',
    'gpt-x',
    '99',
    'u1',
    'a1',
    'data:x',
    'NOTICE',
  ]) {
    assert.ok(!json.includes(canary), `${canary} leaked`);
  }
  assert.deepEqual(out, [
    { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
    {
      role: 'assistant',
      parts: [
        { type: 'tool', server: 'files', tool: 'read', state: 'done' },
        { type: 'text', text: 'done' },
      ],
    },
  ]);
});

test('with tool details the arguments and result text are included (still no ids)', () => {
  const json = JSON.stringify(serializeForShare(conversation, { includeToolDetails: true }));
  assert.ok(json.includes('ARG-CANARY') && json.includes('RESULT-CANARY'));
  assert.ok(!json.includes('call_ID_CANARY'));
});

test('tokens are 192 random bits in base64url and never repeat', () => {
  const tokens = new Set(Array.from({ length: 1000 }, newShareToken));
  assert.equal(tokens.size, 1000);
  for (const t of tokens) assert.match(t, SHARE_TOKEN);
  assert.equal(Buffer.from([...tokens][0] ?? '', 'base64url').length, 24);
});

test('A14: an imported message keeps its imported flag in the snapshot, and no other metadata', () => {
  const imported: Array<Omit<ChatMessage, 'id'>> = [
    { role: 'user', parts: [{ type: 'text', text: 'from a file' }], metadata: { imported: true } },
    {
      role: 'assistant',
      parts: conversation[2]?.parts ?? [],
      metadata: { imported: true, model: 'gpt-x', usage: { totalTokens: 99 } },
    },
    { role: 'user', parts: [{ type: 'text', text: 'typed here' }] },
    {
      role: 'assistant',
      parts: [{ type: 'text', text: 'answered here' }],
      metadata: { imported: false, model: 'gpt-x' },
    },
  ];
  const out = serializeForShare(imported, { includeToolDetails: true });
  assert.deepEqual(
    out.map((m) => m.imported),
    [true, true, undefined, undefined],
  );
  assert.ok(!JSON.stringify(out).includes('gpt-x'));
});

test('a shared result leaves out what the server meant for the model only (audience ["assistant"])', () => {
  const message: ChatMessage = {
    id: 'a2',
    role: 'assistant',
    parts: [
      {
        type: 'dynamic-tool',
        toolName: 'rich__audience_mix',
        toolCallId: 'c2',
        state: 'output-available',
        input: {},
        output: {
          content: [
            { type: 'text', text: 'USER-ONLY', annotations: { audience: ['user'] } },
            { type: 'text', text: 'MODEL-ONLY', annotations: { audience: ['assistant'] } },
            { type: 'text', text: 'SHARED' },
          ],
        },
        toolMetadata: { server: 'rich', tool: 'audience_mix' },
      },
    ],
  };
  const json = JSON.stringify(serializeForShare([message], { includeToolDetails: true }));
  assert.ok(json.includes('USER-ONLY') && json.includes('SHARED'));
  assert.ok(!json.includes('MODEL-ONLY'));
});

test('attachments are shared only when the owner includes them, by id and name (never their URL)', () => {
  const id = 'AbCdEfGhIjKlMnOpQrStUv';
  const messages: ChatMessage[] = [
    {
      id: 'u1',
      role: 'user',
      parts: [
        { type: 'text', text: 'see' },
        { type: 'file', url: `/api/files/${id}`, mediaType: 'image/png', filename: 'cat.png' },
        { type: 'file', url: 'https://example.com/x.png', mediaType: 'image/png', filename: 'remote.png' },
      ],
    },
  ];
  assert.deepEqual(serializeForShare(messages, { includeToolDetails: true })[0]?.parts, [
    { type: 'text', text: 'see' },
  ]);
  assert.deepEqual(serializeForShare(messages, { includeToolDetails: false, includeFiles: true })[0]?.parts, [
    { type: 'text', text: 'see' },
    { type: 'file', id, name: 'cat.png', mediaType: 'image/png' },
  ]);
});

test('an answer cut short keeps its interrupted flag in the snapshot (never passes as complete)', () => {
  const out = serializeForShare(
    [
      { role: 'assistant', parts: [{ type: 'text', text: 'Half an ans' }], metadata: { interrupted: true } },
      { role: 'assistant', parts: [{ type: 'text', text: 'Whole' }], metadata: { interrupted: false } },
    ],
    { includeToolDetails: false },
  );
  assert.deepEqual(
    out.map((m) => m.interrupted),
    [true, undefined],
  );
});
