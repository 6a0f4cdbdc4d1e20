import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { UIMessageChunk } from 'ai';
import {
  beginTurn,
  isTurnRunning,
  othersClaimEnded,
  publishTurn,
  readTurn,
  stopTurn,
  type TurnHandle,
} from '@/app/_server/running-turns';
import { markCutTurns } from '@/app/_server/cut-turn-sweep';
import { getDb } from '@/db/client';
import { listMessages } from '@/db/queries/messages';
import { changeMessage, saveAssistantMessage, saveUserMessage } from '@/db/queries/message-writes';
import { applyApprovals } from '@/lib/chat/approvals';
import type { ChatPart } from '@/lib/schemas/chat';
import { user } from '@/db/tables';
import { resetProcessState } from '@/lib/process-state';
import { Bus } from '@/lib/shared/bus';
import { closeSharedRedis, RedisConnections } from '@/lib/shared/redis';
import { type RedisServer, startRedisServer } from '@/e2e/fixtures/redis-server';
import { RedisTurnBuffer } from '@/lib/shared/redis-turn-buffer';
import { eventually } from '@/lib/shared/test-redis';
import { TurnLeases } from '@/lib/shared/turn-leases';

// This process is instance A (the app's running-turns with REDIS_URL); instance B is built from the
// same lib/shared classes on its own connections, as another app process would.
const dir = mkdtempSync(join(tmpdir(), 'running-turns-'));
const saved = { ...process.env };
let b: { buffer: RedisTurnBuffer; leases: TurnLeases; stops: string[] };

let server: RedisServer;
let conns: RedisConnections;

before(async () => {
  server = await startRedisServer();
  resetProcessState();
  Object.assign(process.env, { REDIS_URL: server.url, DATABASE_PATH: join(dir, 'app.db') });
  conns = new RedisConnections(server.url);
  const stops: string[] = [];
  b = {
    buffer: new RedisTurnBuffer(conns),
    leases: new TurnLeases(conns, new Bus(conns, 'instance-b'), (id) => stops.push(id)),
    stops,
  };
});
after(async () => {
  b.leases.dispose();
  await closeSharedRedis();
  await conns.close();
  await server.stop();
  resetProcessState();
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

/** A model stream the test writes to; it ends (as the real turn does) when the turn is aborted. */
function turnStream(turn: TurnHandle) {
  let controller!: ReadableStreamDefaultController<UIMessageChunk>;
  const stream = new ReadableStream<UIMessageChunk>({ start: (c) => (controller = c) });
  turn.signal.addEventListener('abort', () => controller.close());
  return {
    stream,
    write: (chunk: UIMessageChunk) => controller.enqueue(chunk),
    end: () => controller.close(),
  };
}

async function text(stream: ReadableStream<Uint8Array> | null): Promise<string> {
  assert.ok(stream);
  const decoder = new TextDecoder();
  let out = '';
  for await (const chunk of stream) out += decoder.decode(chunk, { stream: true });
  return out;
}

test('a turn begun on A is seen running on B, read there from its start and live, and Stop on B stops it', async () => {
  const turn = await beginTurn('c1');
  const model = turnStream(turn);
  const own = text(publishTurn('c1', turn, model.stream));
  model.write({ type: 'start' });
  model.write({ type: 'text-start', id: 't' });
  assert.equal(await b.leases.isRunning('c1'), true);
  assert.equal(await b.leases.claim('c1', 'other'), false, 'B cannot start a turn there meanwhile');
  await eventually(async () => (await b.buffer.read('c1')) !== null);
  const onB = text(await b.buffer.read('c1'));
  model.write({ type: 'text-delta', id: 't', delta: 'Hello' });
  assert.equal(await b.leases.requestStop('c1', 10_000), 'stored');
  assert.equal(turn.signal.aborted, true, "B's stop aborted A's turn");
  assert.equal(await isTurnRunning('c1'), false);
  assert.equal(await b.leases.isRunning('c1'), false, 'the lease is released once the turn ended');
  const expected =
    'data: {"type":"start"}\n\ndata: {"type":"text-start","id":"t"}\n\ndata: {"type":"text-delta","id":"t","delta":"Hello"}\n\ndata: [DONE]\n\n';
  assert.equal(await own, expected);
  assert.equal(await onB, expected);
  assert.equal(await text(await readTurn('c1')), expected, 'A reads the ended turn back from Redis');
});

test('A refuses a turn (409) while B holds the conversation, sees it running, and its Stop reaches B', async () => {
  assert.equal(await b.leases.claim('c2', 'b-turn'), true);
  await assert.rejects(beginTurn('c2'), /still being written/);
  assert.equal(await isTurnRunning('c2'), true);
  await b.leases.start();
  const stopping = stopTurn('c2');
  await eventually(() => b.stops.includes('c2'));
  await b.leases.release('c2', 'b-turn'); // B stored its answer
  assert.equal(await stopping, 'stored');
  const turn = await beginTurn('c2');
  turn.end();
});

test("a Stop on A while A's own request still asks for the lease B holds reaches B", async () => {
  assert.equal(await b.leases.claim('c3', 'b-turn'), true);
  await b.leases.start();
  const begun = beginTurn('c3'); // registered here at once; its claim is on its way to Redis
  const stopping = stopTurn('c3');
  await assert.rejects(begun, /still being written/);
  await eventually(() => b.stops.includes('c3'), 100);
  await b.leases.release('c3', 'b-turn'); // B stored its answer
  assert.equal(await stopping, 'stored');
});

test("another user's claim held on B does not lock the owner out on A; her own running turn there does", async () => {
  // What Bob's request on B holds from its claim until its preparation reads the conversation (a 404).
  assert.equal(await b.leases.claim('c-probe', 'bob-turn', 'bob'), true);
  await assert.rejects(beginTurn('c-probe', 'alice'), /still being written/);
  const waiting = othersClaimEnded('c-probe', 'alice', 2_000);
  setTimeout(() => void b.leases.release('c-probe', 'bob-turn'), 50);
  assert.equal(await waiting, true, "Alice's message waits until Bob's request is refused");
  const alices = await beginTurn('c-probe', 'alice');
  alices.end();
  await eventually(async () => !(await b.leases.isRunning('c-probe')));
  // Her own answer running on B (from her other tab): her message on A is still refused.
  assert.equal(await b.leases.claim('c-probe', 'alice-turn', 'alice'), true);
  await assert.rejects(beginTurn('c-probe', 'alice'), /still being written/);
  assert.equal(await othersClaimEnded('c-probe', 'alice', 2_000), false);
  assert.equal(await b.leases.isRunning('c-probe'), true);
  await b.leases.release('c-probe', 'alice-turn');
});

test("the owner waits past another user's claim on A that was refused because a third user's claim holds B", async () => {
  assert.equal(await b.leases.claim('c-probe2', 'carol-turn', 'carol'), true);
  const bobs = beginTurn('c-probe2', 'bob'); // registered on A at once; its claim is on its way to Redis
  const waiting = othersClaimEnded('c-probe2', 'alice', 2_000);
  await assert.rejects(bobs, /still being written/);
  setTimeout(() => void b.leases.release('c-probe2', 'carol-turn'), 50);
  assert.equal(await waiting, true);
  (await beginTurn('c-probe2', 'alice')).end();
});

test('a question whose instance died gets an interrupted answer; one whose turn another instance runs does not', async () => {
  const db = getDb();
  await db.insert(user).values({ id: 'u-cut', name: 'u', email: 'cut@example.com' });
  const ask = (conversationId: string) =>
    saveUserMessage(db, {
      conversationId,
      userId: 'u-cut',
      title: 't',
      model: null,
      isNew: true,
      modelChanged: false,
      message: { id: `${conversationId}-q`, role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    });
  // B runs a turn in one conversation (its lease lives); another conversation's instance died (no lease).
  assert.ok(await b.leases.claim('held-by-b', 'turn-b'));
  await ask('held-by-b');
  await ask('instance-died');
  assert.equal(await markCutTurns(), 1);
  const died = await listMessages(db, 'instance-died');
  assert.equal(died.at(-1)?.role, 'assistant');
  assert.equal(died.at(-1)?.metadata?.interrupted, true);
  assert.deepEqual(
    (await listMessages(db, 'held-by-b')).map((m) => m.role),
    ['user'],
  );
  // Once B's turn is gone without an answer (its lease released, as when it expires), it is marked too,
  // but by one instance at a time: the sweep lock is still held for a few seconds.
  await b.leases.release('held-by-b', 'turn-b');
  assert.equal(await markCutTurns(), 0);
  await conns.command.del('mcpchat:sweep');
  assert.equal(await markCutTurns(), 1);
  assert.equal((await listMessages(db, 'held-by-b')).at(-1)?.metadata?.interrupted, true);
});

test("an answer continued after its approvals on an instance that died is marked interrupted by another's sweep", async () => {
  const db = getDb();
  await db.insert(user).values({ id: 'u-cont', name: 'u', email: 'cont@example.com' });
  const asked = await saveUserMessage(db, {
    conversationId: 'continued',
    userId: 'u-cont',
    title: 't',
    model: null,
    isNew: true,
    modelChanged: false,
    message: { id: 'continued-q', role: 'user', parts: [{ type: 'text', text: 'delete it' }] },
  });
  assert.equal(asked, 'appended');
  const call = {
    type: 'dynamic-tool',
    toolName: 'files__delete',
    toolCallId: 'call-ok',
    state: 'approval-requested',
    input: {},
    approval: { id: 'ok' },
  } as ChatPart;
  await saveAssistantMessage(db, 'continued', { id: 'continued-a', role: 'assistant', parts: [call] });
  // A continuing turn that ends as it should (its answer stored, its lease released) leaves no mark.
  assert.ok(await b.leases.claim('continued-fine', 'turn-b1'));
  await b.leases.noteContinuing('continued-fine');
  await b.leases.release('continued-fine', 'turn-b1');
  assert.deepEqual(await b.leases.continuingSince(0), []);
  // B's turn continues the answer (its lease taken, noted as continuing, the approval stored) ...
  assert.ok(await b.leases.claim('continued', 'turn-b2'));
  await b.leases.noteContinuing('continued');
  await changeMessage(db, 'continued', 'continued-a', (m) => ({
    ...m,
    parts: applyApprovals(m.parts, [{ id: 'ok', approved: true }]).parts,
  }));
  await conns.command.del('mcpchat:sweep');
  assert.equal(await markCutTurns(), 0, 'not while its lease lives');
  // ... and B dies before the answer is stored again: its lease expires.
  await conns.command.del('mcpchat:lease:continued');
  await conns.command.del('mcpchat:sweep');
  assert.equal(await markCutTurns(), 1);
  const leaf = (await listMessages(db, 'continued')).at(-1);
  assert.equal(leaf?.id, 'continued-a');
  assert.equal(leaf?.metadata?.interrupted, true, 'its calls show as cancelled, not running for good');
  assert.deepEqual(await b.leases.continuingSince(0), [], 'the mark is gone once dealt with');
});

test('once the first part of an answer is out, the rest waits for beforeRest; nothing is lost', async () => {
  const turn = await beginTurn('c-rest');
  const model = turnStream(turn);
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let firstOutputs = 0;
  const reader = publishTurn(
    'c-rest',
    turn,
    model.stream,
    [],
    () => firstOutputs++,
    () => held,
  ).getReader();
  for (const chunk of [
    { type: 'start' },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'Hel' },
    { type: 'text-delta', id: 't', delta: 'lo' },
  ] as UIMessageChunk[])
    model.write(chunk);
  model.end();
  const decoder = new TextDecoder();
  let seen = '';
  while (!seen.includes('"Hel"')) seen += decoder.decode((await reader.read()).value);
  assert.equal(firstOutputs, 1, 'the first part (not the opening text-start) counted as the first output');
  // Held: nothing more comes until beforeRest resolves.
  const next = reader.read();
  const raced = await Promise.race([
    next.then(() => 'more'),
    new Promise((r) => setTimeout(() => r('held'), 50)),
  ]);
  assert.equal(raced, 'held');
  release();
  let rest = decoder.decode((await next).value);
  for (let r = await reader.read(); !r.done; r = await reader.read()) rest += decoder.decode(r.value);
  assert.equal(
    seen + rest,
    'data: {"type":"start"}\n\ndata: {"type":"text-start","id":"t"}\n\ndata: {"type":"text-delta","id":"t","delta":"Hel"}\n\n' +
      'data: {"type":"text-delta","id":"t","delta":"lo"}\n\ndata: [DONE]\n\n',
  );
  assert.equal(firstOutputs, 2, 'called again at the end (it counts once: the gate ignores the second)');
});
