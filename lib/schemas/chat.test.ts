import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChatRequestSchema, RenameSchema } from '@/lib/schemas/chat';
import { titleFrom } from '@/lib/title';

const valid = { id: 'abcdefgh', message: { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] } };

describe('ChatRequestSchema', () => {
  test('accepts the body useChat sends', () => {
    assert.ok(ChatRequestSchema.safeParse(valid).success);
    assert.ok(ChatRequestSchema.safeParse({ ...valid, model: 'gpt-4o-mini' }).success);
  });

  for (const [name, body] of Object.entries({
    'short id': { ...valid, id: 'abc' },
    'id with a slash': { ...valid, id: 'abcdefgh/../x' },
    'unknown field': { ...valid, extra: true },
    'assistant role': { ...valid, message: { ...valid.message, role: 'assistant' } },
    'empty text': { ...valid, message: { ...valid.message, parts: [{ type: 'text', text: '   ' }] } },
    'no parts': { ...valid, message: { ...valid.message, parts: [] } },
    'wrong type': { ...valid, message: { ...valid.message, parts: [{ type: 'text', text: 42 }] } },
    'tool part from the client': {
      ...valid,
      message: { ...valid.message, parts: [{ type: 'dynamic-tool', toolName: 'x' }] },
    },
    'huge text': {
      ...valid,
      message: { ...valid.message, parts: [{ type: 'text', text: 'x'.repeat(100_001) }] },
    },
  })) {
    test(`rejects ${name}`, () => assert.equal(ChatRequestSchema.safeParse(body).success, false));
  }
});

describe('titles', () => {
  test('come from the first message, folded and capped at 80 characters', () => {
    assert.equal(titleFrom('  Hello\n\nworld  '), 'Hello world');
    assert.equal(titleFrom('x'.repeat(200)).length, 80);
    assert.equal(titleFrom('   '), 'New chat');
  });
  test('rename needs a non-empty title', () => {
    assert.equal(RenameSchema.safeParse({ title: '  ' }).success, false);
    assert.equal(RenameSchema.safeParse({ title: 'ok' }).success, true);
  });
});
