import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage } from '@/lib/schemas/chat';
import { requestBody } from './chat-request';

const msg = (id: string, role: 'user' | 'assistant'): ChatMessage => ({
  id,
  role,
  parts: [{ type: 'text', text: id }],
});

test('a new message names the message shown before it as its parent (null for the first)', () => {
  assert.deepEqual(requestBody('c', [msg('q1', 'user')], new Set(), null), {
    id: 'c',
    message: msg('q1', 'user'),
    parentId: null,
  });
  // An edit of q2: the list is cut before q2 and the edit appended, so it follows q2's parent a1.
  const body = requestBody(
    'c',
    [msg('q1', 'user'), msg('a1', 'assistant'), msg('q2-edit', 'user')],
    new Set(),
    null,
  );
  assert.equal('parentId' in body && body.parentId, 'a1');
});

test('a message to a conversation seen stored says so (existing); approvals do not', () => {
  assert.deepEqual(requestBody('c', [msg('q1', 'user')], new Set(), null, true), {
    id: 'c',
    message: msg('q1', 'user'),
    parentId: null,
    existing: true,
  });
  const asked: ChatMessage = {
    id: 'a1',
    role: 'assistant',
    parts: [
      {
        type: 'dynamic-tool',
        toolName: 't',
        toolCallId: 'call',
        input: {},
        state: 'approval-responded',
        approval: { id: 'ap', approved: true },
      },
    ],
  };
  assert.deepEqual(requestBody('c', [msg('q1', 'user'), asked], new Set(), null, true), {
    id: 'c',
    approvals: [{ id: 'ap', approved: true }],
  });
});
