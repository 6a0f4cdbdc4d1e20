/**
 * R5 (SECURITY-CASES.md): the tab is closed, or the network goes dead, while a tool call runs; the
 * user then re-sends the message. Safe state: the user message was stored before the model call; a
 * turn belongs to the server, so the disconnect does not stop it and the whole answer is stored; the
 * re-send, with the same client message id, is not a second user message; no tool call is left "running".
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import { cardState } from '@/app/(chat)/_components/tool-result';
import type { ChatMessage } from '@/lib/schemas/chat';
import {
  type Auth,
  chat,
  chatBody,
  chatUntil,
  conversation,
  newId,
  request,
  type Stack,
  startStack,
  streamedText,
  testServer,
  toolParts,
  waitFor,
  withDb,
} from './harness';

let stack: Stack;
let auth: Auth;

before(async () => {
  ({ stack, admin: auth } = await startStack(
    { tests: testServer() },
    { name: 'R5 Admin', email: 'r5@example.com', password: 'r5-password-1' },
    { liftLimits: false },
  ));
});
after(() => stack?.stop());

/** The model's requests so far (the fake model logs every one). */
async function modelRequests(): Promise<string> {
  return (await request(`${stack.fakeUrl}/requests`, 'GET')).body;
}

/** Every tool part of the message is in a final state as the UI shows it (never "running" or "preparing"). */
function assertNoToolRunning(m: ChatMessage | undefined) {
  const interrupted = m?.metadata?.interrupted === true;
  for (const part of toolParts(m)) {
    const state = cardState(part, interrupted);
    assert.ok(
      !['running', 'streaming-input'].includes(state),
      `tool part left ${state}: ${JSON.stringify(part)}`,
    );
  }
}

const toolOutcomes = (conversationId: string) =>
  withDb(stack, (db) =>
    db
      .prepare('select tool, outcome from tool_calls where conversation_id = ? order by created_at')
      .all(conversationId),
  ) as Array<{ tool: string; outcome: string }>;

test('R5: tab closed mid-stream during a tool call; the same message re-sent: stored first, the turn finishes on the server, re-send deduplicated, no tool left running', async () => {
  const id = newId('r5-tab');
  const messageId = newId('m');
  const marker = `r5-tab-${Date.now()}`;
  // [[delay]] holds each model response, so the stored user message can be looked at while the model is being asked.
  const text = `${marker} [[delay:700]] [[tool:sleep:{"ms":2000,"steps":20}]]`;
  const turn = chatUntil(stack, auth, chatBody(id, messageId, text), /"type":"data-tool-progress"/);

  await waitFor(
    'the model request',
    async () => ((await modelRequests()).includes(marker) ? true : undefined),
    10_000,
  );
  const early = await conversation(stack, auth, id);
  assert.equal(early.status, 200, 'the conversation exists while the model is still being asked');
  assert.deepEqual(
    early.messages.map((m) => [m.role, m.id]),
    [['user', messageId]],
    'user message stored before the model answered',
  );

  const live = await turn; // the sleep tool reports progress: it is running in the MCP child
  const cutAt = performance.now();
  live.cut();
  const answered = await waitFor('the stored answer', async () => {
    const { messages } = await conversation(stack, auth, id);
    return messages.at(-1)?.role === 'assistant' ? messages : undefined;
  });
  const ms = Math.round(performance.now() - cutAt);
  console.log(`R5 time-to-safe-state (tab closed during a tool call → the whole answer stored): ${ms} ms`);

  assert.deepEqual(
    answered.map((m) => m.role),
    ['user', 'assistant'],
  );
  const finished = answered[1];
  assert.equal(
    finished?.metadata?.interrupted,
    undefined,
    `the turn went on without its tab: ${JSON.stringify(finished?.metadata)}`,
  );
  assert.equal(toolParts(finished)[0]?.state, 'output-available', 'the tool call finished');
  assertNoToolRunning(finished);
  const calls = await waitFor('the tool call record', () =>
    toolOutcomes(id).length ? toolOutcomes(id) : undefined,
  );
  assert.deepEqual(calls, [{ tool: 'sleep', outcome: 'ok' }], 'the MCP call ran to its end and was recorded');

  // The user re-sends the same message (same client message id): one user message, a fresh full answer.
  const again = await chat(stack, auth, chatBody(id, messageId, text));
  assert.equal(again.status, 200, again.body.slice(0, 300));
  assert.match(again.body, /"type":"finish"/);
  assert.equal(streamedText(again.body), 'Tool results: slept 2000ms');
  const final = (await conversation(stack, auth, id)).messages;
  assert.deepEqual(
    final.map((m) => [m.role, m.role === 'user' ? m.id : 'answer']),
    [
      ['user', messageId],
      ['assistant', 'answer'],
    ],
    'the re-send did not duplicate the user message',
  );
  assert.equal(final[1]?.metadata?.interrupted, undefined, 'the new answer is complete');
  assert.equal(toolParts(final[1])[0]?.state, 'output-available');
  assertNoToolRunning(final[1]);
  const rows = withDb(stack, (db) =>
    db.prepare("select count(*) as n from messages where conversation_id = ? and role = 'user'").get(id),
  ) as { n: number };
  assert.equal(rows.n, 1, 'one user message row');
});

test('R5: network goes silent mid-stream during a tool call (no FIN): the server finishes and stores the whole answer', async () => {
  const id = newId('r5-net');
  const messageId = newId('m');
  const live = await chatUntil(
    stack,
    auth,
    chatBody(id, messageId, 'Wait [[tool:sleep:{"ms":1500,"steps":15}]]'),
    /"type":"data-tool-progress"/,
  );
  const cutAt = performance.now();
  live.silence(); // the client stops reading; the server sees no disconnect, as when a network path dies
  try {
    const answered = await waitFor('the stored answer', async () => {
      const { messages } = await conversation(stack, auth, id);
      return messages.at(-1)?.role === 'assistant' ? messages : undefined;
    });
    const ms = Math.round(performance.now() - cutAt);
    console.log(`R5 time-to-safe-state (network silent during a tool call → full answer stored): ${ms} ms`);
    const answer = answered[1];
    assert.deepEqual(
      answered.map((m) => m.role),
      ['user', 'assistant'],
    );
    assert.equal(
      answer?.metadata?.interrupted,
      undefined,
      `the answer is complete: ${JSON.stringify(answer?.metadata)}`,
    );
    assert.equal(toolParts(answer)[0]?.state, 'output-available');
    assert.ok(
      JSON.stringify(answer?.parts).includes('Tool results: slept 1500ms'),
      'the final text is stored',
    );
    assertNoToolRunning(answer);
    assert.deepEqual(toolOutcomes(id), [{ tool: 'sleep', outcome: 'ok' }]);
  } finally {
    live.cut();
  }
});
