import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { COALESCE_WINDOW_MS, coalesceDeltas } from './coalesce-deltas';

const delta = (
  id: string,
  text: string,
  type: 'text-delta' | 'reasoning-delta' = 'text-delta',
): LanguageModelV4StreamPart => ({ type, id, delta: text });

/** Pipes `source` through coalesceDeltas and collects what comes out. */
async function run(source: ReadableStream<LanguageModelV4StreamPart>) {
  const out: LanguageModelV4StreamPart[] = [];
  for await (const part of source.pipeThrough(coalesceDeltas())) out.push(part);
  return out;
}

test('deltas that arrive in one event-loop turn (one network read) leave as one delta, text unchanged', async () => {
  const words = Array.from({ length: 200 }, (_, i) => `word${i + 1} `);
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'text-start', id: 't' },
    ...words.map((w) => delta('t', w)),
    { type: 'text-end', id: 't' },
  ];
  const out = await run(new ReadableStream({ start: (c) => [...parts.map((p) => c.enqueue(p)), c.close()] }));
  assert.deepEqual(out, [
    { type: 'text-start', id: 't' },
    delta('t', words.join('')),
    { type: 'text-end', id: 't' },
  ]);
});

test('a model streaming token by token: the first token at once, then a few tokens per window, none lost', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  let source!: ReadableStreamDefaultController<LanguageModelV4StreamPart>;
  const reader = new ReadableStream<LanguageModelV4StreamPart>({
    start: (c) => {
      source = c;
    },
  })
    .pipeThrough(coalesceDeltas())
    .getReader();
  // The first token is not held back (time to first token unchanged), even after an empty delta (the
  // role chunk OpenAI sends first).
  source.enqueue(delta('t', ''));
  assert.deepEqual((await reader.read()).value, delta('t', ''));
  t.mock.timers.tick(20);
  source.enqueue(delta('t', 'a'));
  assert.deepEqual((await reader.read()).value, delta('t', 'a'));
  // Tokens that follow within the window (each in its own network read) wait for it, then leave as one.
  let next: LanguageModelV4StreamPart | undefined;
  const read = reader.read().then((r) => (next = r.value));
  for (const w of ['b', 'c']) {
    source.enqueue(delta('t', w));
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.mock.timers.tick(COALESCE_WINDOW_MS - 1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(next, undefined, 'held until the window has passed');
  t.mock.timers.tick(1);
  await read;
  assert.deepEqual(next, delta('t', 'bc'));
  // Any other part releases what is held at once, in order.
  source.enqueue(delta('t', 'd'));
  source.enqueue({ type: 'text-end', id: 't' });
  source.close();
  const rest: LanguageModelV4StreamPart[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(r.value);
  assert.deepEqual(rest, [delta('t', 'd'), { type: 'text-end', id: 't' }]);
});

test('a source that fails (a cut connection) releases the held text before its error', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  let source!: ReadableStreamDefaultController<LanguageModelV4StreamPart>;
  const reader = new ReadableStream<LanguageModelV4StreamPart>({
    start: (c) => {
      source = c;
    },
  })
    .pipeThrough(coalesceDeltas())
    .getReader();
  source.enqueue(delta('t', 'first '));
  assert.deepEqual((await reader.read()).value, delta('t', 'first '));
  source.enqueue(delta('t', 'kept'));
  await new Promise((resolve) => setImmediate(resolve));
  source.error(new Error('socket closed'));
  assert.deepEqual((await reader.read()).value, delta('t', 'kept'));
  await assert.rejects(reader.read(), /socket closed/);
});

test('order is kept: any other part, another id or another kind of delta first releases the pending text', async () => {
  const parts: LanguageModelV4StreamPart[] = [
    delta('r', 'think ', 'reasoning-delta'),
    delta('r', 'hard', 'reasoning-delta'),
    delta('t', 'Hello '),
    delta('t', 'world'),
    { type: 'tool-input-start', id: 'call1', toolName: 'add' },
    delta('t2', 'after'),
    delta('t3', 'other id'),
    {
      type: 'finish',
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      finishReason: { unified: 'stop', raw: 'stop' },
    },
  ];
  const out = await run(new ReadableStream({ start: (c) => [...parts.map((p) => c.enqueue(p)), c.close()] }));
  assert.deepEqual(out.slice(0, 6), [
    delta('r', 'think hard', 'reasoning-delta'),
    delta('t', 'Hello world'),
    { type: 'tool-input-start', id: 'call1', toolName: 'add' },
    delta('t2', 'after'),
    delta('t3', 'other id'),
    parts.at(-1),
  ]);
  assert.equal(out.length, 6);
});

test('text pending when the source ends is released before the end, and a cancel leaves no error behind', async () => {
  const out = await run(
    new ReadableStream({
      start: (c) => [c.enqueue(delta('t', 'last ')), c.enqueue(delta('t', 'words')), c.close()],
    }),
  );
  assert.deepEqual(out, [delta('t', 'last words')]);

  const reader = new ReadableStream<LanguageModelV4StreamPart>({
    start: (c) => void c.enqueue(delta('t', 'x')),
  })
    .pipeThrough(coalesceDeltas())
    .getReader();
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  await reader.cancel('stop');
  // The pending flush (a setImmediate queued when 'x' went through) runs before this one.
  await new Promise((resolve) => setImmediate(resolve));
  process.off('uncaughtException', onUncaught);
  assert.deepEqual(uncaught, []);
});
