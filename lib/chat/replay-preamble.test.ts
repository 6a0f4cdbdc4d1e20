import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { replayPreamble } from '@/lib/chat/replay-preamble';
import type { ChatMessage } from '@/lib/schemas/chat';

const stored: ChatMessage = {
  id: 'msg-1',
  role: 'assistant',
  metadata: { model: 'fake-model' },
  parts: [
    { type: 'step-start' },
    { type: 'text', text: 'Let me look.', state: 'done' },
    {
      type: 'dynamic-tool',
      toolName: 'tests__add',
      toolCallId: 'call-1',
      state: 'output-available',
      input: { a: 1, b: 2 },
      output: { content: [{ type: 'text', text: '3' }] },
    },
    { type: 'step-start' },
    {
      type: 'dynamic-tool',
      toolName: 'tests__delete_all',
      toolCallId: 'call-2',
      state: 'approval-responded',
      input: {},
      approval: { id: 'appr-1', approved: true },
    },
  ],
} as ChatMessage;

test('the preamble of a continued answer rebuilds the stored answer, so a replay from the start shows it whole', async () => {
  const chunks = replayPreamble(stored);
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
  let last: ChatMessage | undefined;
  for await (const message of readUIMessageStream<ChatMessage>({ stream })) last = message;
  assert.equal(last?.id, 'msg-1');
  assert.deepEqual(last?.metadata, { model: 'fake-model' });
  const shape = last?.parts.map((p) =>
    p.type === 'dynamic-tool'
      ? [p.type, p.toolCallId, p.state]
      : p.type === 'text'
        ? [p.type, p.text]
        : [p.type],
  );
  assert.deepEqual(shape, [
    ['step-start'],
    ['text', 'Let me look.'],
    ['dynamic-tool', 'call-1', 'output-available'],
    ['step-start'],
    ['dynamic-tool', 'call-2', 'approval-responded'],
  ]);
});
