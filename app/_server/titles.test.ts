import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { type Db, openDatabase } from '@/db/client';
import { getOwnConversation, setModelTitle, updateConversation } from '@/db/queries/conversations';
import { conversations, user } from '@/db/schema';
import { settledTitle, startTitle, TITLE_INSTRUCTIONS, wantsTitle } from '@/app/_server/titles';
import { firstTokenGate } from '@/lib/chat/first-token-gate';
import type { ChatMessage } from '@/lib/schemas/chat';

// Generated titles against a real migrated SQLite file and a scripted model: the rename-wins rule.

let dir: string;
let db: Db;
let close: () => void;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'titles-'));
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
function newConversation(title = 'Plan a trip to Lisbon'): string {
  const id = `c-${++seq}`;
  db.insert(conversations).values({ id, userId: 'alice', title }).run();
  return id;
}
const rename = (id: string, title: string) =>
  updateConversation(db, 'alice', id, { title, titleSource: 'user' });
const titleOf = async (id: string) => (await getOwnConversation(db, 'alice', id))?.title;

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};
/** A model whose one reply is `reply` (or a failure), sent when `gate` resolves. */
function titleModel(reply: string | Error, gate: Promise<void> = Promise.resolve()) {
  const calls: LanguageModelV4CallOptions[] = [];
  const model: LanguageModelV4 = {
    specificationVersion: 'v4',
    provider: 'fake',
    modelId: 'fake-model',
    supportedUrls: {},
    doGenerate: async (options) => {
      calls.push(options);
      await gate;
      if (reply instanceof Error) throw reply;
      return {
        content: [{ type: 'text', text: reply }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
    doStream: async () => {
      throw new Error('not used');
    },
  };
  return { model, calls };
}

const question: ChatMessage = {
  id: 'u1',
  role: 'user',
  parts: [{ type: 'text', text: 'Plan a trip to Lisbon' }],
};
const answer: ChatMessage = {
  id: 'a1',
  role: 'assistant',
  parts: [{ type: 'text', text: 'Day 1: Alfama…' }],
  metadata: { usage: { inputTokens: 5, outputTokens: 3 } },
};

function title(conversationId: string, model: LanguageModelV4, ans: ChatMessage = answer) {
  startTitle(db, { conversationId, model, history: [question], answer: ans });
  return settledTitle(db, 'alice', conversationId, 5_000);
}

describe('generated titles', () => {
  test('after the first answer the cleaned model title replaces the first words', async () => {
    const c = newConversation();
    const { model, calls } = titleModel('"Lisbon Trip Plan"\nextra line');
    assert.deepEqual(await title(c, model), { title: 'Lisbon Trip Plan', titleSource: 'model' });
    const prompt = JSON.stringify(calls[0]?.prompt);
    assert.ok(prompt.includes(TITLE_INSTRUCTIONS.slice(0, 40)));
    assert.ok(prompt.includes('Plan a trip to Lisbon') && prompt.includes('Day 1: Alfama'));
  });

  test('a rename made while the title request is in flight wins', async () => {
    const c = newConversation();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { model, calls } = titleModel('Lisbon Trip Plan', gate);
    const settled = title(c, model);
    while (!calls.length) await new Promise((r) => setTimeout(r, 5));
    await rename(c, 'My holiday');
    release();
    assert.deepEqual(await settled, { title: 'My holiday', titleSource: 'user' });
  });

  test('the title request waits while another turn waits for its first token', async () => {
    const c = newConversation();
    const { model, calls } = titleModel('Lisbon Trip Plan');
    const firstToken = firstTokenGate().begin();
    const settled = title(c, model);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(calls.length, 0, 'no title request before the other turn has its first token');
    firstToken();
    assert.deepEqual(await settled, { title: 'Lisbon Trip Plan', titleSource: 'model' });
    assert.equal(calls.length, 1);
  });

  test('a renamed conversation is never overwritten (the conditional update)', async () => {
    const c = newConversation();
    await rename(c, 'Mine');
    assert.equal(await setModelTitle(db, c, 'Model title'), false);
    assert.equal(await titleOf(c), 'Mine');
    const d = newConversation();
    assert.equal(await setModelTitle(db, d, 'Model title'), true);
    assert.equal(
      await setModelTitle(db, d, 'Second model title'),
      false,
      'one generated title per conversation',
    );
    assert.equal(await titleOf(d), 'Model title');
  });

  test('a failed or empty title request leaves the first words, silently', async () => {
    const failed = newConversation();
    assert.deepEqual(await title(failed, titleModel(new Error('HTTP 500')).model), {
      title: 'Plan a trip to Lisbon',
      titleSource: 'auto',
    });
    const empty = newConversation();
    assert.equal((await title(empty, titleModel('  ""  ').model))?.title, 'Plan a trip to Lisbon');
  });

  test('no title request after a failed or stopped answer', async () => {
    const c = newConversation();
    const { model, calls } = titleModel('Nope');
    await title(c, model, { ...answer, metadata: { error: 'Fake provider error 500' } });
    await title(c, model, { ...answer, metadata: { interrupted: true } });
    assert.equal(calls.length, 0);
    assert.equal(await titleOf(c), 'Plan a trip to Lisbon');
  });

  test('only the owner reads the title', async () => {
    const c = newConversation();
    assert.equal(await settledTitle(db, 'bob', c, 0), null);
  });
});

describe('which turn asks for a title', () => {
  const ok: ChatMessage = { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'x' }] };
  const failed: ChatMessage = { ...ok, metadata: { error: 'boom' } };
  test('the first answer that goes through, while the title is automatic', async () => {
    assert.equal(wantsTitle(undefined, [question]), true);
    assert.equal(wantsTitle('auto', [question, failed, question]), true);
    assert.equal(wantsTitle('auto', [question, ok, question]), false);
    assert.equal(wantsTitle('user', [question]), false);
    assert.equal(wantsTitle('model', [question]), false);
  });
});
