import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { coalesceDeltas } from './coalesce-deltas';

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

test('a model streaming token by token is passed on token by token, before the next token arrives', async (t) => {
  // Clocks are frozen: a release that waited on a timer would never come, and the test would fail.
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'] });
  // The source sends the next token only once the previous one has come out: no token can be merged
  // with a later one, and a transform that held a lone token back until more input came would stall.
  let sent = 0;
  let seen: (() => void) | undefined;
  const source = new ReadableStream<LanguageModelV4StreamPart>({
    async start(c) {
      for (const w of ['a', 'b', 'c']) {
        const out = new Promise<void>((resolve) => {
          seen = resolve;
        });
        c.enqueue(delta('t', w));
        sent++;
        await out;
      }
      c.close();
    },
  });
  const parts: Array<{ part: LanguageModelV4StreamPart; sentSoFar: number }> = [];
  for await (const part of source.pipeThrough(coalesceDeltas())) {
    parts.push({ part, sentSoFar: sent });
    seen?.();
  }
  assert.deepEqual(parts, [
    { part: delta('t', 'a'), sentSoFar: 1 },
    { part: delta('t', 'b'), sentSoFar: 2 },
    { part: delta('t', 'c'), sentSoFar: 3 },
  ]);
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
