import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { startChatTurn } from '@/app/_server/chat-turn';
import { changeUser } from '@/app/_server/admin-users';
import { invalidateProviders } from '@/app/_server/model-sources';
import { addProvider } from '@/app/_server/providers-admin';
import { resumeTurn, stopOwnTurn } from '@/app/_server/conversation-turns';
import type { SessionUser } from '@/app/_server/session';
import { settledTitle } from '@/app/_server/titles';
import { getDb } from '@/db/client';
import { listMessages } from '@/db/queries/messages';
import { user } from '@/db/schema';
import { fake, startFakeForFile } from '@/e2e/fixtures/fake-openai-test-kit';
import { firstTokenGate } from '@/lib/chat/first-token-gate';
import { AppError } from '@/lib/errors';
import { resetProcessState } from '@/lib/process-state';
import type { ChatPost } from '@/lib/schemas/chat-post';

// Chat turns as POST /api/chat runs them (startChatTurn), in this process, on a fresh SQLite file, with
// the fake model as the provider: what the user sees when requests about one conversation meet.

startFakeForFile();
const dir = mkdtempSync(join(tmpdir(), 'chat-turn-'));
const saved = { ...process.env };
const alice: SessionUser = { id: 'alice', name: 'Alice', email: 'alice@example.com', role: 'user' };
const bob: SessionUser = { id: 'bob', name: 'Bob', email: 'bob@example.com', role: 'user' };
const root: SessionUser = { id: 'root', name: 'Root', email: 'root@example.com', role: 'admin' };
const ada: SessionUser = { id: 'ada', name: 'Ada', email: 'ada@example.com', role: 'admin' };
const cy: SessionUser = { id: 'cy', name: 'Cy', email: 'cy@example.com', role: 'user' };
const dee: SessionUser = { id: 'dee', name: 'Dee', email: 'dee@example.com', role: 'admin' };

const ask = (conversation: string, id: string, text: string, existing = true): ChatPost => ({
  id: conversation,
  message: { id, role: 'user', parts: [{ type: 'text', text }] },
  ...(existing && { existing: true }),
});

// Inside a suite: its `before` runs once the fake model (a root hook) has started.
describe('chat turns', () => {
  before(async () => {
    resetProcessState();
    Object.assign(process.env, {
      DATABASE_PATH: join(dir, 'app.db'),
      OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'sk-test',
      CHAT_MODEL: 'fake-model',
    });
    for (const u of [alice, bob, root, ada, cy, dee]) await getDb().insert(user).values(u);
  });
  after(() => {
    resetProcessState();
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  test('Stop pressed while the answer waits for its turn to be prepared ends it: the model is never asked', async () => {
    await (await startChatTurn(alice, ask('conv-stop-queued', 'q1', 'hello', false))).text();
    // Another conversation's turn is being prepared; this one's waits behind it (first-token gate).
    const other = startChatTurn(alice, ask('conv-other-prep', 'o1', 'meanwhile', false));
    const turn = startChatTurn(alice, ask('conv-stop-queued', 'q2', 'do not answer [[words:20]]'));
    while (firstTokenGate().figures().preparationsQueued === 0) await nextTurn();
    const stop = await stopOwnTurn(alice, 'conv-stop-queued');
    assert.equal(stop.stopped, true);
    await (await other).text();
    await (await turn).text();
    const answer = (await listMessages(getDb(), 'conv-stop-queued')).at(-1);
    assert.equal(answer?.role, 'assistant');
    assert.equal(answer?.metadata?.interrupted, true, 'stored as stopped');
    assert.deepEqual(stop.answer, answer, 'Stop answers with the answer as stored');
    assert.ok(!fake.requests.some((r) => JSON.stringify(r.body.messages).includes('do not answer')));
    for (const id of ['conv-stop-queued', 'conv-other-prep']) await settledTitle(getDb(), alice.id, id, 5000);
  });

  test('disabling a user stops the answer of their new chat that waits for its preparation', async () => {
    const other = startChatTurn(alice, ask('conv-before-disable', 'b1', 'meanwhile', false));
    const turn = startChatTurn(bob, ask('conv-new-of-bob', 'n1', 'not for a disabled user', false));
    while (firstTokenGate().figures().preparationsQueued === 0) await nextTurn();
    // An admin disables bob now: his first message is not stored yet, so no stored conversation names it.
    await changeUser(root, bob.id, { disabled: true });
    await (await other).text();
    await (await turn).text();
    const answer = (await listMessages(getDb(), 'conv-new-of-bob')).at(-1);
    assert.equal(answer?.metadata?.interrupted, true, 'stored as stopped');
    assert.ok(
      !fake.requests.some((r) => JSON.stringify(r.body.messages).includes('not for a disabled user')),
    );
    for (const [u, id] of [
      [alice, 'conv-before-disable'],
      [bob, 'conv-new-of-bob'],
    ] as const)
      await settledTitle(getDb(), u.id, id, 5000);
  });

  test('a message let in before its user was disabled or demoted, claimed after, runs as they are now', async () => {
    // POST /api/chat reads its user first, then its body and its admission; an admin's change lands in
    // between, and its stop of the user's turns (changeUser) is over before this turn is claimed.
    const asked = (text: string) => fake.requests.some((r) => JSON.stringify(r.body.messages).includes(text));
    await changeUser(root, cy.id, { disabled: true });
    await assert.rejects(
      startChatTurn(cy, ask('conv-cy', 'c1', 'sent while being disabled', false)),
      (err) => err instanceof AppError && err.code === 'unauthorized',
    );
    assert.ok(!asked('sent while being disabled'), 'the model was not asked');
    assert.deepEqual(await listMessages(getDb(), 'conv-cy'), [], 'nothing stored');
    // A model only admins may use, asked for by an admin demoted meanwhile: refused as to any user.
    await addProvider({
      name: 'Staff',
      baseURL: `${fake.url}/v1`,
      models: ['fake-model'],
      allow: ['admin'],
    } as never);
    invalidateProviders();
    await changeUser(root, dee.id, { role: 'user' });
    await assert.rejects(
      startChatTurn(dee, {
        ...ask('conv-dee', 'd1', 'sent while being demoted', false),
        model: 'Staff/fake-model',
      }),
      (err) => err instanceof AppError && err.code === 'bad_request',
    );
    assert.ok(!asked('sent while being demoted'), 'the model was not asked');
  });

  test("demoting an admin stops their running answer; another change of a user's role or name does not", async () => {
    await (await startChatTurn(ada, ask('conv-demoted', 'd1', 'hello', false))).text();
    const turn = await startChatTurn(ada, ask('conv-demoted', 'd2', 'long [[words:400]] [[slow:20]]'));
    const reading = turn.text();
    while (!fake.requests.some((r) => JSON.stringify(r.body.messages).includes('long'))) await nextTurn();
    // Changes that demote no one first (alice stays a user, ada an admin), then ada's demotion.
    await changeUser(root, alice.id, { role: 'user' });
    await changeUser(root, ada.id, { role: 'admin' });
    await changeUser(root, ada.id, { role: 'user' });
    await reading;
    const answer = (await listMessages(getDb(), 'conv-demoted')).at(-1);
    assert.equal(answer?.metadata?.interrupted, true, 'stored as stopped');
    assert.doesNotMatch(JSON.stringify(answer?.parts), /word400/);
    // alice (a user made a user again) keeps her running answer.
    const hers = await startChatTurn(alice, ask('conv-kept', 'k1', '[[words:30]] [[slow:20]]', false));
    const text = hers.text();
    await changeUser(root, alice.id, { role: 'user' });
    await text;
    assert.equal((await listMessages(getDb(), 'conv-kept')).at(-1)?.metadata?.interrupted, undefined);
    for (const [u, id] of [
      [ada, 'conv-demoted'],
      [alice, 'conv-kept'],
    ] as const)
      await settledTitle(getDb(), u.id, id, 5000);
  });

  test('a reload while the answer waits for its preparation follows that answer to its end', async () => {
    await (await startChatTurn(alice, ask('conv-reload-queued', 'r1', 'first question', false))).text();
    const other = startChatTurn(alice, ask('conv-other-reload', 'p1', 'meanwhile', false));
    const turn = startChatTurn(alice, ask('conv-reload-queued', 'r2', '[[say:the second answer]]'));
    while (firstTokenGate().figures().preparationsQueued === 0) await nextTurn();
    // The reloaded page finds the answer running and follows its stream (GET /api/chat/[id]/stream).
    const followed = await resumeTurn(alice, 'conv-reload-queued');
    assert.equal(followed.status, 200);
    const replay = await followed.text();
    assert.match(replay, /the second answer/);
    assert.doesNotMatch(replay, /You said: first question/, 'not the answer before it again');
    await (await other).text();
    await (await turn).text();
    for (const id of ['conv-reload-queued', 'conv-other-reload'])
      await settledTitle(getDb(), alice.id, id, 5000);
  });

  test('a regenerate from a stale tab while a newer message is answered is refused; that answer goes on', async () => {
    await (await startChatTurn(alice, ask('conv-stale-regen', 'g1', 'old question', false))).text();
    // Tab A asks a new question; its answer streams slowly.
    const running = await startChatTurn(alice, {
      ...ask('conv-stale-regen', 'g2', 'new question [[slow:20]] [[words:40]]'),
      parentId: (await listMessages(getDb(), 'conv-stale-regen')).at(-1)?.id,
    });
    // Tab B, opened before it, still shows the old answer last and asks for it again.
    await assert.rejects(
      startChatTurn(alice, { ...ask('conv-stale-regen', 'g1', 'old question'), parentId: null }),
      (err) => err instanceof AppError && err.code === 'conflict',
    );
    const answer = await running.text();
    assert.match(answer, /word40/);
    const stored = await listMessages(getDb(), 'conv-stale-regen');
    assert.deepEqual(
      stored.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.equal(stored.at(-1)?.metadata?.interrupted, undefined, 'the newer answer was not cut');
    await settledTitle(getDb(), alice.id, 'conv-stale-regen', 5000);
  });
});
