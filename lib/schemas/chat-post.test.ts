import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChatRequestSchema } from '@/lib/schemas/chat-post';

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
