import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { UIMessageChunk } from 'ai';
import { type Db, openDatabase } from '@/db/client';
import { listMessages, listMessageTree } from '@/db/queries/messages';
import { saveAssistantMessage } from '@/db/queries/message-writes';
import { siblingsOf } from '@/db/queries/message-tree';
import { getOwnConversation } from '@/db/queries/conversations';
import { user } from '@/db/schema';
import {
  loadTurn,
  persistAnswer,
  persistFailure,
  persistInput,
  withEndState,
} from '@/app/_server/turn-stages';
import { AppError } from '@/lib/errors';
import type { ChatMessage, ChatPart } from '@/lib/schemas/chat';
import type { ChatPost } from '@/lib/schemas/chat-post';

// Each stage of a chat turn alone, against a real migrated SQLite file (no HTTP, no model, no MCP).

let dir: string;
let db: Db;
let close: () => void;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'turn-stages-'));
  const handle = openDatabase(join(dir, 'test.db'));
  db = handle.db;
  close = () => handle.sqlite.close();
  for (const id of ['alice', 'bob'])
    db.insert(user)
      .values({ id, name: id, email: `${id}@example.com` })
      .run();
});
after(async () => {
  close();
  rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
const newId = (tag: string) => `${tag}-${++seq}`;
const text = (t: string): ChatPart[] => [{ type: 'text', text: t }];
const say = (conversation: string, id: string, t: string): ChatPost => ({
  id: conversation,
  message: { id, role: 'user', parts: [{ type: 'text', text: t }] },
});

/** Load, then persist a user message, as the turn does. */
async function send(userId: string, body: ChatPost) {
  const loaded = await loadTurn(db, userId, body);
  return persistInput(db, {
    userId,
    body,
    loaded,
    modelId: 'm1',
    userParts: async () =>
      'message' in body
        ? text(body.message.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''))
        : [],
  });
}

const isCode = (code: string) => (err: unknown) => err instanceof AppError && err.code === code;

describe('load', () => {
  test("another user's conversation does not exist; an approval for a conversation that does not is a 404", async () => {
    const c = newId('c');
    await send('bob', say(c, newId('m'), 'mine'));
    await assert.rejects(async () => loadTurn(db, 'alice', say(c, newId('m'), 'hi')), isCode('not_found'));
    await assert.rejects(
      () => loadTurn(db, 'alice', { id: newId('c'), approvals: [{ id: 'a', approved: true }] }),
      isCode('not_found'),
    );
  });
});

describe('persist input', () => {
  test('a new conversation: the message is stored first, titled from its text, with the default tool settings', async () => {
    const c = newId('c');
    const out = await send('alice', say(c, newId('m'), 'Plan a trip to Lisbon'));
    assert.deepEqual(
      out.history.map((m) => [m.role, m.parts]),
      [['user', text('Plan a trip to Lisbon')]],
    );
    assert.equal(out.settings.toolMode, 'auto');
    assert.equal(out.continued, undefined);
    assert.equal((await getOwnConversation(db, 'alice', c))?.title, 'Plan a trip to Lisbon');
    assert.equal((await listMessages(db, c)).length, 1);
  });

  test('an attachment deleted after it was checked (the sweep of unsent files) refuses the message: 404, nothing stored', async () => {
    const c = newId('c');
    const body = say(c, newId('m'), 'see the file');
    const url = '/api/files/gone-before-storing-1';
    await assert.rejects(
      persistInput(db, {
        userId: 'alice',
        body,
        loaded: await loadTurn(db, 'alice', body),
        modelId: 'm1',
        // What storedUserParts returned when the file still existed.
        userParts: async () => [...text('see the file'), { type: 'file', mediaType: 'text/plain', url }],
      }),
      (err) => isCode('not_found')(err) && /Attachment not found/.test((err as Error).message),
    );
    assert.equal(await getOwnConversation(db, 'alice', c), null);
  });

  test('an edit is a new version beside the edited message; nothing is dropped; an answer id is refused', async () => {
    const c = newId('c');
    const first = newId('m');
    await send('alice', say(c, first, 'one'));
    const answerOne = newId('a');
    await persistAnswer(db, c, { id: answerOne, role: 'assistant', parts: text('answer one') }, first);
    const second = newId('m');
    await send('alice', { ...say(c, second, 'two'), parentId: answerOne } as ChatPost);
    // Edit "two": a new message following the same answer.
    const edit = newId('m');
    const edited = await send('alice', { ...say(c, edit, 'two, edited'), parentId: answerOne } as ChatPost);
    assert.deepEqual(
      edited.history.map((m) => m.parts),
      [text('one'), text('answer one'), text('two, edited')],
    );
    assert.deepEqual(await siblingsOf(db, c, [edit]), { [edit]: [second, edit] });
    // Other text under a stored id is refused (409), not a silent rewrite.
    await assert.rejects(send('alice', say(c, first, 'one, rewritten')), isCode('conflict'));
    // Regenerate the first answer: the stored message is kept, the model sees the path up to it.
    const again = await send('alice', say(c, first, 'one'));
    assert.deepEqual(
      again.history.map((m) => m.parts),
      [text('one')],
    );
    const answerTwo = newId('a');
    await persistAnswer(db, c, { id: answerTwo, role: 'assistant', parts: text('answer two') }, first);
    assert.deepEqual(await siblingsOf(db, c, [answerTwo]), { [answerTwo]: [answerOne, answerTwo] });
    assert.equal((await listMessageTree(db, c)).length, 5, 'every version is still stored');
    await assert.rejects(
      send('alice', { ...say(c, newId('m'), 'lost'), parentId: 'no-such-message' } as ChatPost),
      isCode('bad_request'),
    );
    await assert.rejects(send('alice', say(c, answerTwo, 'sneaky')), isCode('bad_request'));
  });

  const awaiting = (approvalId: string): ChatMessage => ({
    id: newId('a'),
    role: 'assistant',
    parts: [
      {
        type: 'dynamic-tool',
        toolName: 'files__delete',
        toolCallId: newId('call'),
        toolMetadata: { server: 'files', tool: 'delete' },
        state: 'approval-requested',
        input: {},
        approval: { id: approvalId },
      },
    ] as ChatPart[],
  });

  test('an approval is applied once: the answer continues; a second answer to it is a 409', async () => {
    const c = newId('c');
    await send('alice', say(c, newId('m'), 'delete it'));
    await saveAssistantMessage(db, c, awaiting('ap-1'));
    const approve: ChatPost = { id: c, approvals: [{ id: 'ap-1', approved: true, always: true }] };
    const out = await persistInput(db, {
      userId: 'alice',
      body: approve,
      loaded: await loadTurn(db, 'alice', approve),
      modelId: 'm1',
      userParts: async () => [],
    });
    const part = out.continued?.parts[0] as Extract<ChatPart, { type: 'dynamic-tool' }>;
    assert.equal(part.state, 'approval-responded');
    assert.deepEqual(out.settings.allowedTools, ['files/delete']);
    await assert.rejects(
      persistInput(db, {
        userId: 'alice',
        body: approve,
        loaded: await loadTurn(db, 'alice', approve),
        modelId: 'm1',
        userParts: async () => [],
      }),
      isCode('conflict'),
    );
  });

  test('a new message while a call awaits approval resolves that call as skipped', async () => {
    const c = newId('c');
    await send('alice', say(c, newId('m'), 'delete it'));
    await saveAssistantMessage(db, c, awaiting('ap-2'));
    const out = await send('alice', say(c, newId('m'), 'never mind'));
    const skipped = out.history[1]?.parts[0] as Extract<ChatPart, { type: 'dynamic-tool' }>;
    assert.equal(skipped.state, 'output-denied');
    assert.equal(out.history.at(-1)?.role, 'user');
  });
});

describe('persist answer', () => {
  test('a turn that cannot run stores its failure as an interrupted answer with the reason', async () => {
    const c = newId('c');
    await send('alice', say(c, newId('m'), 'hello'));
    await persistFailure(db, c, 'No model is configured.');
    const last = (await listMessages(db, c)).at(-1);
    assert.equal(last?.role, 'assistant');
    assert.deepEqual([last?.metadata?.interrupted, last?.metadata?.error], [true, 'No model is configured.']);
  });
});

describe('end state', () => {
  const drain = async (s: ReadableStream<UIMessageChunk>) => {
    const out: UIMessageChunk[] = [];
    for await (const c of s) out.push(c);
    return out;
  };
  const source = () =>
    new ReadableStream<UIMessageChunk>({
      start(controller) {
        controller.enqueue({ type: 'start' });
        controller.close();
      },
    });

  test('an interrupted or failed answer ends its stream with that state; a finished one adds nothing', async () => {
    assert.deepEqual(await drain(withEndState(source(), () => ({ interrupted: true, error: 'cut' }))), [
      { type: 'start' },
      { type: 'message-metadata', messageMetadata: { interrupted: true, error: 'cut' } },
    ]);
    assert.deepEqual(await drain(withEndState(source(), () => ({ createdAt: 1 }))), [{ type: 'start' }]);
  });
});
