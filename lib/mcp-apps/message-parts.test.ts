import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UserMessageSchema } from '@/lib/schemas/chat-post';
import { parseStoredParts } from '@/lib/schemas/stored-message';

const mark = { type: 'data-app-message', data: { server: 'apps', tool: 'show' } } as const;
const context = {
  type: 'data-app-context',
  data: { server: 'apps', tool: 'show', text: 'picked apple' },
} as const;
const message = (parts: unknown[]) => ({ id: 'm1', role: 'user', parts });

test('a user message may carry an app mark and app context, kept when stored', () => {
  const parsed = UserMessageSchema.safeParse(
    message([{ type: 'text', text: 'Tell me more' }, context, mark]),
  );
  assert.ok(parsed.success);
  assert.deepEqual(parseStoredParts(parsed.data.parts), [
    { type: 'text', text: 'Tell me more' },
    context,
    mark,
  ]);
});

test('app parts are checked: one mark at most, bounded context, no extra fields, never without text', () => {
  const text = { type: 'text', text: 'hi' };
  assert.ok(!UserMessageSchema.safeParse(message([text, mark, mark])).success);
  assert.ok(
    !UserMessageSchema.safeParse(
      message([text, { ...context, data: { ...context.data, text: 'x'.repeat(20_001) } }]),
    ).success,
  );
  assert.ok(
    !UserMessageSchema.safeParse(message([text, { ...mark, data: { ...mark.data, html: '<b>' } }])).success,
  );
  assert.ok(!UserMessageSchema.safeParse(message([context])).success);
});
