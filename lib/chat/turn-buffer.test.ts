import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryTurnBuffer } from '@/lib/chat/turn-buffer';

const enc = new TextEncoder();
const dec = new TextDecoder();
const event = (n: number) => enc.encode(`data: ${n}\n\n`);

async function readAll(stream: ReadableStream<Uint8Array> | null): Promise<string> {
  assert.ok(stream, 'a stream');
  let out = '';
  for await (const chunk of stream) out += dec.decode(chunk);
  return out;
}

test('a reader replays a turn from its start, then follows it live until its end', async () => {
  const buffer = new MemoryTurnBuffer();
  buffer.open('c1', 't1');
  buffer.append('c1', 't1', event(0));
  buffer.append('c1', 't1', event(1));
  const early = readAll(buffer.read('c1'));
  const fromTwo = readAll(buffer.read('c1', 1));
  buffer.append('c1', 't1', event(2));
  buffer.close('c1', 't1');
  assert.equal(await early, 'data: 0\n\ndata: 1\n\ndata: 2\n\n');
  assert.equal(await fromTwo, 'data: 1\n\ndata: 2\n\n');
  assert.equal(
    await readAll(buffer.read('c1')),
    'data: 0\n\ndata: 1\n\ndata: 2\n\n',
    'an ended turn is still readable',
  );
  assert.equal(buffer.read('nothing'), null);
});

test('an ended turn is freed after keepEndedMs; memory is counted and given back', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const buffer = new MemoryTurnBuffer({ keepEndedMs: 1000 });
  buffer.open('c1', 't1');
  buffer.append('c1', 't1', event(0));
  assert.equal(buffer.heldBytes, event(0).byteLength);
  buffer.close('c1', 't1');
  t.mock.timers.tick(999);
  assert.ok(buffer.read('c1'));
  t.mock.timers.tick(1);
  assert.equal(buffer.read('c1'), null);
  assert.equal(buffer.heldBytes, 0);
});

test('a turn over its byte cap is no longer replayable, and readers end; others are unaffected', async () => {
  const buffer = new MemoryTurnBuffer({ maxTurnBytes: 20 });
  buffer.open('big', 'b');
  buffer.open('small', 's');
  const reader = readAll(buffer.read('big'));
  assert.equal(buffer.append('big', 'b', event(1)), true);
  assert.equal(buffer.append('small', 's', event(1)), true);
  assert.equal(buffer.append('big', 'b', enc.encode('x'.repeat(30))), false);
  assert.equal(await reader, 'data: 1\n\n');
  assert.equal(buffer.read('big'), null);
  buffer.close('small', 's');
  assert.equal(await readAll(buffer.read('small')), 'data: 1\n\n');
});

test('chunks of an old turn id are refused once a new turn has opened', () => {
  const buffer = new MemoryTurnBuffer();
  buffer.open('c1', 'old');
  buffer.close('c1', 'old');
  buffer.open('c1', 'new');
  assert.equal(buffer.append('c1', 'old', event(9)), false);
  assert.equal(buffer.append('c1', 'new', event(1)), true);
});
