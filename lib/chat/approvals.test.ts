import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyApprovals, failUnavailableApprovals, refuseAnswered } from '@/lib/chat/approvals';
import { AppError } from '@/lib/errors';
import type { ChatPart } from '@/lib/schemas/chat';

const pending = (id: string): ChatPart => ({
  type: 'dynamic-tool',
  toolName: 's__t',
  toolCallId: `call-${id}`,
  state: 'approval-requested',
  input: {},
  approval: { id },
  toolMetadata: { server: 's', tool: 't' },
});

test('A2: an approval is applied once; a second answer to it is a conflict', () => {
  const { parts, alwaysAllow } = applyApprovals(
    [pending('a1')],
    [{ id: 'a1', approved: true, always: true }],
  );
  const [answered] = parts;
  assert.ok(answered?.type === 'dynamic-tool');
  assert.equal(answered.state, 'approval-responded');
  assert.deepEqual(alwaysAllow, ['s/t']);
  for (const approved of [true, false]) {
    assert.throws(
      () => applyApprovals(parts, [{ id: 'a1', approved }]),
      (err) => err instanceof AppError && err.code === 'conflict',
    );
  }
});

test('A2: an approval id the server never asked about is refused', () => {
  assert.throws(
    () => applyApprovals([pending('a1')], [{ id: 'forged', approved: true }]),
    (err) => err instanceof AppError && err.code === 'bad_request',
  );
});

test('an approved call whose tool is gone ends as a tool error; denied calls and offered tools are left alone', () => {
  const { parts: answered } = applyApprovals(
    [pending('gone'), { ...pending('kept'), toolName: 's__kept' } as ChatPart, pending('no')],
    [
      { id: 'gone', approved: true },
      { id: 'kept', approved: true },
      { id: 'no', approved: false },
    ],
  );
  const { parts, failed } = failUnavailableApprovals(answered, (name) => name === 's__kept');
  const [gone, kept, no] = parts;
  assert.ok(gone?.type === 'dynamic-tool' && gone.state === 'output-error');
  assert.match(gone.errorText, /^Could not run s\.t: it is no longer available/);
  assert.deepEqual(failed, [{ toolCallId: 'call-gone', errorText: gone.errorText }]);
  assert.equal(kept, answered[1]);
  assert.equal(no, answered[2]);
});

test('an answer to a call that no longer awaits approval (answered, or skipped by a newer message) is a conflict', () => {
  const skipped = {
    ...pending('a1'),
    state: 'output-denied',
    approval: { id: 'a1', approved: false },
  } as ChatPart;
  const history = [
    { id: 'm1', role: 'assistant' as const, parts: [skipped] },
    { id: 'm2', role: 'assistant' as const, parts: [pending('a2')] },
  ];
  assert.throws(
    () => refuseAnswered(history, [{ id: 'a1', approved: true }]),
    (err) => err instanceof AppError && err.code === 'conflict',
  );
  assert.doesNotThrow(() => refuseAnswered(history, [{ id: 'a2', approved: true }]));
});
