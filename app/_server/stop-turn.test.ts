// POST /api/chat/[id]/stop (stopOwnTurn) when Stop meets the answer's end: it answers with the answer as
// stored, and says it stopped the turn only when the stop cut the answer short. A Stop that reaches a turn
// whose answer was already stored complete (or a turn already over) must not make the tab mark it stopped.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ChatMessage } from '@/lib/schemas/chat';

const dir = mkdtempSync(join(tmpdir(), 'stop-turn-'));
process.env.DATABASE_PATH = join(dir, 'app.db');

const { stopOwnTurn } = await import('@/app/_server/conversation-turns');
const { beginTurn, isTurnRunning } = await import('@/app/_server/running-turns');
const { getDb } = await import('@/db/client');
const { listMessages } = await import('@/db/queries/messages');
const { saveAssistantMessage, saveUserMessage } = await import('@/db/queries/message-writes');
const { user } = await import('@/db/tables');

const ALICE = { id: 'alice', name: 'Alice', email: 'alice@example.com', role: 'user' as const };

before(async () => {
  await getDb().insert(user).values({ id: ALICE.id, name: ALICE.name, email: ALICE.email });
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function ask(conversationId: string, question: string): Promise<void> {
  await saveUserMessage(getDb(), {
    conversationId,
    userId: ALICE.id,
    title: question,
    model: null,
    isNew: true,
    modelChanged: false,
    message: { id: `${conversationId}-q`, role: 'user', parts: [{ type: 'text', text: question }] },
  });
}

const answer = (conversationId: string, text: string, interrupted: boolean): ChatMessage => ({
  id: `${conversationId}-a`,
  role: 'assistant',
  parts: [{ type: 'text', text }],
  metadata: { createdAt: 1, ...(interrupted ? { interrupted: true } : {}) },
});

/**
 * A running turn of the conversation as chat-turn.ts runs it: aborted (by Stop), it stores `onAbort`'s
 * answer, if any, and then ends.
 */
async function runningTurn(conversationId: string, onAbort: () => ChatMessage | null) {
  const turn = await beginTurn(conversationId, ALICE.id);
  turn.signal.addEventListener('abort', () => {
    const stored = onAbort();
    void (stored ? saveAssistantMessage(getDb(), conversationId, stored) : Promise.resolve()).then(turn.end);
  });
  return turn;
}

test('a Stop that reaches a turn whose answer is already stored complete stopped nothing: the answer comes back complete', async () => {
  const id = 'stop-after-stored';
  await ask(id, 'a short one');
  // The model's answer ended and was stored (not interrupted: the abort came after it was decided);
  // the turn has not ended yet when the Stop arrives.
  await runningTurn(id, () => null);
  await saveAssistantMessage(getDb(), id, answer(id, 'the whole answer', false));
  const result = await stopOwnTurn(ALICE, id);
  assert.equal(result.stopped, false);
  assert.deepEqual(result.answer, (await listMessages(getDb(), id)).at(-1));
  assert.equal(result.answer?.metadata?.interrupted, undefined);
  assert.equal(await isTurnRunning(id), false);
});

test('a Stop after the turn is over stopped nothing and answers with the complete stored answer', async () => {
  const id = 'stop-after-end';
  await ask(id, 'a short one');
  await saveAssistantMessage(getDb(), id, answer(id, 'the whole answer', false));
  const result = await stopOwnTurn(ALICE, id);
  assert.equal(result.stopped, false);
  assert.deepEqual(result.answer?.parts, [{ type: 'text', text: 'the whole answer' }]);
});

test('a Stop that cuts the answer short stopped it: the answer comes back as stored, interrupted', async () => {
  const id = 'stop-cuts';
  await ask(id, 'a long one');
  await runningTurn(id, () => answer(id, 'the first half', true));
  const result = await stopOwnTurn(ALICE, id);
  assert.equal(result.stopped, true);
  assert.equal(result.answer?.metadata?.interrupted, true);
  assert.deepEqual(result.answer, (await listMessages(getDb(), id)).at(-1));
});

test('a Stop whose turn has no answer stored (yet) stopped it, with no answer to show', async () => {
  const id = 'stop-no-answer';
  await ask(id, 'a long one');
  await runningTurn(id, () => null);
  assert.deepEqual(await stopOwnTurn(ALICE, id), { stopped: true, answer: null });
});

test('a Stop whose answer is not stored within its wait sends no older version of it: stopped, no answer', async () => {
  const id = 'stop-unsettled';
  await ask(id, 'needs an approval');
  // The answer as stored before its approvals; the continued answer is stored again at its end, which here
  // takes longer than the Stop waits (a slow database, a tool ignoring the abort).
  await saveAssistantMessage(getDb(), id, answer(id, 'before the approval', false));
  const turn = await beginTurn(id, ALICE.id);
  const result = await stopOwnTurn(ALICE, id);
  assert.deepEqual(result, { stopped: true, answer: null });
  assert.equal(turn.signal.aborted, true);
  turn.end();
});
