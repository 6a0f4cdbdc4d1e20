import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COALESCE_WINDOW_MS, coalesceWindowMs, SseCoalescer } from './coalesce-sse';
import { chunk, DONE, finish, usage } from './test-sse';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The events of an SSE text (without their blank lines). */
const events = (text: string) => text.split('\n\n').filter(Boolean);
/** The delta of each data event that is a chunk with a choice. */
const deltas = (text: string) =>
  events(text)
    .filter((e) => e.startsWith('data: {'))
    .map((e) => JSON.parse(e.slice(6)).choices[0]?.delta)
    .filter((d) => d !== undefined);

/** {@link SseCoalescer} as a transform of an SSE body: reads go in one by one, as a socket's would. */
function coalesceSse(): TransformStream<Uint8Array, Uint8Array> {
  let controller!: TransformStreamDefaultController<Uint8Array>;
  const coalescer = new SseCoalescer((text) => {
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      // the stream was cancelled meanwhile (Stop, disconnect): nothing is waiting for this text
    }
  });
  const transformer: Transformer<Uint8Array, Uint8Array> & { cancel: (reason: unknown) => void } = {
    start(c) {
      controller = c;
    },
    transform: (bytes) => coalescer.push(bytes),
    flush: () => coalescer.end(),
    cancel: () => coalescer.stop(),
  };
  return new TransformStream(transformer);
}

/** A source to push network reads into, and the reader of what coalesceSse makes of them. */
function live() {
  let source!: ReadableStreamDefaultController<Uint8Array>;
  const reader = new ReadableStream<Uint8Array>({
    start: (c) => {
      source = c;
    },
  })
    .pipeThrough(coalesceSse())
    .getReader();
  return { source, reader };
}

/** Pipes the reads (each one network read) through coalesceSse and collects the output, read by read. */
async function run(reads: string[]): Promise<string[]> {
  const out: string[] = [];
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const r of reads) c.enqueue(encoder.encode(r));
      c.close();
    },
  });
  for await (const bytes of source.pipeThrough(coalesceSse())) out.push(decoder.decode(bytes));
  return out;
}

test('deltas that arrive in one network read leave as one event, text and order unchanged', async () => {
  const words = Array.from({ length: 200 }, (_, i) => `word${i + 1} `);
  const body = [
    chunk({ role: 'assistant', content: '' }),
    ...words.map((w) => chunk({ content: w })),
    finish,
    usage,
    DONE,
  ].join('');
  const out = (await run([body])).join('');
  // The role chunk takes the text that follows it in the same read.
  assert.deepEqual(deltas(out), [{ role: 'assistant', content: words.join('') }, {}]);
  // The finish, the usage and [DONE] pass through byte for byte, after the text.
  assert.ok(out.endsWith(finish + usage + DONE));
  // The merged event keeps the chunk's other fields.
  const merged = JSON.parse(events(out)[0]!.slice(6));
  assert.equal(merged.id, 'chatcmpl-1');
  assert.equal(merged.model, 'm');
  assert.equal(merged.choices[0].index, 0);
});

test('merged text is exact whatever it holds (quotes, escapes, emoji), and however each event is written', async () => {
  const texts = [
    'say "hi"',
    ' \\ back',
    '\n\tline',
    ' \u0001ctl',
    ' emoji 😀',
    ' </script>',
    ' \u2028sep',
    '',
  ];
  const out = (await run([texts.map((c) => chunk({ content: c })).join('')])).join('');
  assert.deepEqual(deltas(out), [{ content: texts.join('') }]);
  // Written with escapes JSON.stringify would not use, or with a field that differs per event (OpenAI's
  // "obfuscation"): merged all the same, keeping the first event's other fields.
  const written = ['\\u0041b', 'c\\/d', 'e', 'f'].map(
    (text, i) =>
      `data: {"id":"c","obfuscation":"${'x'.repeat(i + 1)}","choices":[{"index":0,"delta":{"content":"${text}"}}]}\n\n`,
  );
  const merged = events((await run([written.join('')])).join('')).map((e) => JSON.parse(e.slice(6)));
  assert.deepEqual(
    merged.map((m) => [m.choices[0].delta.content, m.obfuscation]),
    [['Abc/def', 'x']],
  );
  // An event written like the held one around its text, but whose "text" is not one JSON string, is
  // never merged: it passes on as it came, after what is held.
  const delta = (content: string) =>
    `data: {"id":"c","choices":[{"index":0,"delta":{"content":${content}}}]}`;
  const sneaky = delta('"x","role":"tool"');
  const unterminated = delta('"b\\"');
  const around = [delta('"a"'), unterminated, delta('"c"'), sneaky];
  assert.deepEqual(events((await run([around.map((e) => `${e}\n\n`).join('')])).join('')), around);
});

test('a provider that sends the role in every event (Ollama) is merged; an event with another role is not', async () => {
  const body = [
    ...['Hel', 'lo', ' there'].map((w) => chunk({ role: 'assistant', content: w })),
    chunk({ content: '!' }),
    chunk({ role: 'tool', content: 'odd' }),
    finish,
  ].join('');
  assert.deepEqual(deltas((await run([body])).join('')), [
    { role: 'assistant', content: 'Hello there!' },
    { role: 'tool', content: 'odd' },
    {},
  ]);
});

test('a model streaming token by token: the first token at once, then a few tokens per window, none lost', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const { source, reader } = live();
  const next = async () => decoder.decode((await reader.read()).value);
  // The role chunk and the first token are not held back (time to first token unchanged).
  source.enqueue(encoder.encode(chunk({ role: 'assistant', content: '' })));
  assert.deepEqual(deltas(await next()), [{ role: 'assistant', content: '' }]);
  t.mock.timers.tick(20);
  source.enqueue(encoder.encode(chunk({ content: 'a' })));
  assert.deepEqual(deltas(await next()), [{ content: 'a' }]);
  // Tokens that follow within the window (each its own read) wait for it, then leave as one event.
  let got: string | undefined;
  const read = next().then((s) => (got = s));
  for (const w of ['b', 'c']) {
    source.enqueue(encoder.encode(chunk({ content: w })));
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.mock.timers.tick(COALESCE_WINDOW_MS - 1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(got, undefined, 'held until the window has passed');
  t.mock.timers.tick(1);
  await read;
  assert.deepEqual(deltas(got!), [{ content: 'bc' }]);
  // Any other event releases what is held at once, before itself.
  source.enqueue(encoder.encode(chunk({ content: 'd' }) + finish));
  source.close();
  let rest = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) rest += decoder.decode(r.value);
  assert.deepEqual(deltas(rest), [{ content: 'd' }, {}]);
});

test('an event split across reads (and \\r\\n line ends, split too) is put together', async () => {
  const text = chunk({ content: 'Hello ' }).replace(/\n/g, '\r\n') + chunk({ content: 'world' });
  const cut = text.indexOf('\r\n') + 1; // between a \r and its \n
  const out = (await run([text.slice(0, 10), text.slice(10, cut), text.slice(cut), DONE])).join('');
  assert.deepEqual(deltas(out), [{ content: 'Hello world' }]);
  assert.ok(out.endsWith(DONE));
});

test('a body that fails (a cut connection) releases the held text before its error', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const { source, reader } = live();
  source.enqueue(encoder.encode(chunk({ content: 'first ' })));
  assert.deepEqual(deltas(decoder.decode((await reader.read()).value)), [{ content: 'first ' }]);
  source.enqueue(encoder.encode(chunk({ content: 'kept' })));
  await new Promise((resolve) => setImmediate(resolve));
  const pending = reader.read();
  source.error(new Error('socket closed'));
  assert.deepEqual(deltas(decoder.decode((await pending).value)), [{ content: 'kept' }]);
  await assert.rejects(reader.read(), /socket closed/);
});

test('only events of one shape merge: reasoning, text, tool calls, logprobs and comments keep their order', async () => {
  const toolCall = chunk({
    tool_calls: [{ index: 0, id: 'call1', function: { name: 'add', arguments: '' } }],
  });
  const withLogprobs = chunk({ content: 'p' }, { logprobs: { content: [] } });
  const reads = [
    chunk({ content: null, reasoning_content: 'think ' }) +
      chunk({ content: null, reasoning_content: 'hard' }) +
      chunk({ content: 'Hello ', reasoning_content: null }) +
      chunk({ content: 'world', reasoning_content: null }) +
      ': keep-alive\n\n' +
      chunk({ content: 'after' }) +
      withLogprobs +
      chunk({ content: 'x', reasoning_content: 'y' }) +
      toolCall +
      'event: other\ndata: {"choices":[]}\n\n' +
      'data: {not json\n\n' +
      DONE,
  ];
  const out = (await run(reads)).join('');
  assert.deepEqual(events(out), [
    events(chunk({ content: null, reasoning_content: 'think hard' }))[0],
    events(chunk({ content: 'Hello world', reasoning_content: null }))[0],
    ': keep-alive',
    events(chunk({ content: 'after' }))[0],
    events(withLogprobs)[0],
    events(chunk({ content: 'x', reasoning_content: 'y' }))[0],
    events(toolCall)[0],
    'event: other\ndata: {"choices":[]}',
    'data: {not json',
    'data: [DONE]',
  ]);
});

test('the window widens with the streams open at once: 50 ms up to 10, then 50 ms more per 10, at most 200', () => {
  assert.deepEqual(
    [0, 1, 10, 11, 20, 21, 30, 31, 50, 500].map(coalesceWindowMs),
    [50, 50, 50, 100, 100, 150, 150, 200, 200, 200],
  );
});

test('with 25 answers streaming at once, a token waits for the 150 ms window; once they end, 50 ms again', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const open = (n: number) => Array.from({ length: n }, live);
  const others = open(24);
  for (const o of others) {
    o.source.enqueue(encoder.encode(chunk({ content: 'x' })));
    await o.reader.read();
  }
  const [mine] = open(1);
  mine!.source.enqueue(encoder.encode(chunk({ content: 'a' })));
  await mine!.reader.read();
  let got: string | undefined;
  const read = mine!.reader.read().then((r) => (got = decoder.decode(r.value)));
  mine!.source.enqueue(encoder.encode(chunk({ content: 'b' })));
  await new Promise((resolve) => setImmediate(resolve));
  t.mock.timers.tick(COALESCE_WINDOW_MS);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(got, undefined, 'held past 50 ms while 25 streams are open');
  t.mock.timers.tick(100);
  await read;
  assert.deepEqual(deltas(got!), [{ content: 'b' }]);
  // The others end (and one is cancelled): the window is 50 ms again.
  for (const o of others.slice(1)) {
    o.source.close();
    await o.reader.read();
  }
  await others[0]!.reader.cancel();
  mine!.source.enqueue(encoder.encode(chunk({ content: 'c' })));
  let last: string | undefined;
  void mine!.reader.read().then((r) => (last = decoder.decode(r.value)));
  await new Promise((resolve) => setImmediate(resolve));
  t.mock.timers.tick(COALESCE_WINDOW_MS);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(deltas(last ?? ''), [{ content: 'c' }], 'released after 50 ms');
});
