import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RedisTurnBuffer } from '@/lib/shared/redis-turn-buffer';
import { eventually, startRedisForFile } from '@/lib/shared/test-redis';

const redis = startRedisForFile();
const enc = new TextEncoder();
const dec = new TextDecoder();
const event = (n: number | string) => enc.encode(`data: ${n}\n\n`);

async function readAll(stream: ReadableStream<Uint8Array> | null): Promise<string> {
  assert.ok(stream, 'a stream');
  let out = '';
  for await (const chunk of stream) out += dec.decode(chunk);
  return out;
}

/** Two app instances: A runs the turns, B serves readers. */
function instances(options: ConstructorParameters<typeof RedisTurnBuffer>[1] = {}) {
  const connections = redis.connections();
  return {
    a: new RedisTurnBuffer(connections, options),
    b: new RedisTurnBuffer(redis.connections(), options),
    /** Resolves once Redis has run every command A sent so far (one connection runs them in order). */
    landed: () => connections.command.ping(),
  };
}

test('a turn appended on instance A is read on B from its start and then live, until its end', async () => {
  const { a, b, landed } = instances();
  a.open('c1', 't1');
  a.append('c1', 't1', event(0));
  a.append('c1', 't1', event(1));
  await landed();
  const own = readAll(a.follow('c1', 't1', 0));
  const fromStart = readAll(await b.read('c1'));
  const fromOne = readAll(await b.read('c1', 1));
  for (let n = 2; n < 600; n++) a.append('c1', 't1', event(n)); // more than one page of XRANGE/XREAD
  a.close('c1', 't1');
  const all = Array.from({ length: 600 }, (_, n) => `data: ${n}\n\n`).join('');
  assert.equal(await own, all, 'the starting client reads its own instance');
  assert.equal(await fromStart, all);
  assert.equal(await fromOne, all.slice('data: 0\n\n'.length));
  assert.equal(await readAll(await b.read('c1')), all, 'an ended turn is still readable from B');
  assert.equal(await readAll(await a.read('c1', 599)), 'data: 599\n\n', 'and from A, through Redis');
  assert.equal(await b.read('nothing'), null);
});

test('a reader on B that started before any chunk follows the turn live', async () => {
  const { a, b, landed } = instances();
  a.open('c2', 't1');
  await landed();
  const live = readAll(await b.read('c2'));
  await new Promise((r) => setTimeout(r, 50)); // B is blocked in XREAD by now (the result does not depend on it)
  a.append('c2', 't1', event('x'));
  a.close('c2', 't1');
  assert.equal(await live, 'data: x\n\n');
});

test('a new turn in the conversation replaces the ended one; a reader of the old one still ends at its end', async () => {
  const { a, b, landed } = instances();
  a.open('c3', 'old');
  a.append('c3', 'old', event('old'));
  a.close('c3', 'old');
  await landed();
  const oldReader = await b.read('c3');
  b.open('c3', 'new');
  b.append('c3', 'new', event('new'));
  assert.equal(await readAll(oldReader), 'data: old\n\n');
  const fromA = readAll(await a.read('c3'));
  b.close('c3', 'new');
  assert.equal(await fromA, 'data: new\n\n');
});

test('an ended turn expires keepEndedMs after its end; a running one is refreshed', async () => {
  const { a } = instances({ keepEndedMs: 5_000, runningTtlMs: 60_000 });
  const command = redis.connections().command;
  a.open('c4', 't1');
  a.append('c4', 't1', event(0));
  await eventually(async () => (await command.pttl('mcpchat:turn:c4:t1')) > 0);
  assert.ok((await command.pttl('mcpchat:turn:c4')) > 5_000, 'running: the long ttl');
  a.close('c4', 't1');
  await eventually(async () => (await command.pttl('mcpchat:turn:c4')) <= 5_000);
  for (const key of ['mcpchat:turn:c4', 'mcpchat:turn:c4:t1']) {
    const ttl = await command.pttl(key);
    assert.ok(ttl > 0 && ttl <= 5_000, `${key} expires after keepEndedMs (${ttl})`);
  }
});

test('a turn over its byte cap ends its readers on B and can no longer be replayed; others go on', async () => {
  const { a, b, landed } = instances({ maxTurnBytes: 20 });
  a.open('big', 'b');
  a.open('small', 's');
  assert.equal(a.append('big', 'b', event(1)), true);
  await landed();
  const reader = readAll(await b.read('big'));
  assert.equal(a.append('small', 's', event(1)), true);
  assert.equal(a.append('big', 'b', enc.encode('x'.repeat(30))), false, 'the local byte count decides');
  assert.equal(await reader, 'data: 1\n\n');
  assert.equal(await b.read('big'), null);
  a.close('small', 's');
  await landed();
  assert.equal(await readAll(await b.read('small')), 'data: 1\n\n');
});

test("a dead writer's turn expires and its live readers on B end", async () => {
  const connections = redis.connections();
  const a = new RedisTurnBuffer(connections, { runningTtlMs: 300 });
  const b = new RedisTurnBuffer(redis.connections(), { blockMs: 100 });
  a.open('c5', 't1');
  a.append('c5', 't1', event(0));
  await connections.command.ping();
  const reader = readAll(await b.read('c5'));
  await connections.close(); // instance A dies: no end marker, no more refreshes
  assert.equal(await reader, 'data: 0\n\n');
  assert.equal(await b.read('c5'), null);
});

test('a reader that cancels while blocked in XREAD frees its connection at once', async () => {
  const { a, b, landed } = instances({ blockMs: 60_000 }); // without the cut it would stay blocked a minute
  const command = redis.connections().command;
  a.open('c6', 't1');
  await landed();
  const stream = await b.read('c6');
  assert.ok(stream);
  const reader = stream.getReader();
  const pending = reader.read();
  // A client blocked in a command has the `b` flag in CLIENT LIST.
  const blocked = async () =>
    ((await command.client('LIST')) as string).split('\n').some((line) => /\bflags=[a-zA-Z]*b/.test(line));
  await eventually(blocked);
  await reader.cancel();
  assert.deepEqual(await pending, { done: true, value: undefined });
  await eventually(async () => !(await blocked()));
  a.close('c6', 't1');
});
