// POST /api/chat (startChatTurn) on a conversation whose answer is being written: its owner is told to
// wait (409); anyone else gets the 404 every route gives for another user's conversation (SPEC §3, S16),
// never a 409 telling them that it exists and is answering right now.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

const dir = mkdtempSync(join(tmpdir(), 'chat-turn-claim-'));
process.env.DATABASE_PATH = join(dir, 'app.db');

const { startChatTurn } = await import('@/app/_server/chat-turn');
const { beginTurn, isTurnRunning } = await import('@/app/_server/running-turns');
const { getDb } = await import('@/db/client');
const { saveUserMessage } = await import('@/db/queries/message-writes');
const { user } = await import('@/db/tables');
const { AppError } = await import('@/lib/errors');

const ALICE = { id: 'alice', name: 'Alice', email: 'alice@example.com', role: 'user' as const };
const BOB = { id: 'bob', name: 'Bob', email: 'bob@example.com', role: 'user' as const };
const CONVERSATION = 'alice-conversation-1';

before(async () => {
  for (const u of [ALICE, BOB]) await getDb().insert(user).values({ id: u.id, name: u.name, email: u.email });
  const stored = await saveUserMessage(getDb(), {
    conversationId: CONVERSATION,
    userId: ALICE.id,
    title: 'Private',
    model: null,
    isNew: true,
    modelChanged: false,
    message: { id: 'alice-m1', role: 'user', parts: [{ type: 'text', text: 'private question' }] },
  });
  assert.equal(stored, 'appended');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const code = (expected: string) => (err: unknown) => {
  assert.ok(err instanceof AppError, String(err));
  assert.equal(err.code, expected, err.message);
  return true;
};

test("while Alice's answer is written, Bob's message or approval answer on her conversation is a 404", async () => {
  const running = await beginTurn(CONVERSATION);
  try {
    await assert.rejects(
      startChatTurn(BOB, {
        id: CONVERSATION,
        message: { id: 'bob-m1', role: 'user', parts: [{ type: 'text', text: 'let me in' }] },
      }),
      code('not_found'),
    );
    await assert.rejects(
      startChatTurn(BOB, { id: CONVERSATION, approvals: [{ id: 'approval-1', approved: true }] }),
      code('not_found'),
    );
    // Alice herself is told that an answer is still being written.
    await assert.rejects(
      startChatTurn(ALICE, {
        id: CONVERSATION,
        message: { id: 'alice-m2', role: 'user', parts: [{ type: 'text', text: 'and another thing' }] },
      }),
      code('conflict'),
    );
    assert.equal(await isTurnRunning(CONVERSATION), true, "Alice's turn is untouched");
  } finally {
    running.end();
  }
});

test("Bob's request naming Alice's conversation does not lock her out while it is refused", async () => {
  // What Bob's request holds from its claim until its preparation reads the conversation (a 404).
  const bobs = await beginTurn(CONVERSATION, BOB.id);
  const alices = startChatTurn(ALICE, {
    id: CONVERSATION,
    message: { id: 'alice-m3', role: 'user', parts: [{ type: 'text', text: 'my next question' }] },
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  bobs.end();
  // Her turn is claimed and prepared: with no model provider set up here, it ends as that says (503),
  // not as a turn already running (409).
  await assert.rejects(alices, code('unavailable'));
  // Held by Alice's own running answer, a new message of hers is still told to wait.
  const own = await beginTurn(CONVERSATION, ALICE.id);
  try {
    await assert.rejects(
      startChatTurn(ALICE, {
        id: CONVERSATION,
        message: { id: 'alice-m4', role: 'user', parts: [{ type: 'text', text: 'one more' }] },
      }),
      code('conflict'),
    );
  } finally {
    own.end();
  }
});
