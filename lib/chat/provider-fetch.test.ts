import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, streamText } from 'ai';
import { dropProcessState } from '@/lib/process-state';
import { describeProviderError } from './provider-errors';
import { providerFetch } from './provider-fetch';
import { chunk, DONE, finish } from './test-sse';

const words = Array.from({ length: 50 }, (_, i) => `w${i} `);

/**
 * A Chat Completions server whose answer depends on the prompt: the words at once, a 429, a body cut
 * after "kept ", an answer that never ends, or a redirect. Records when a request's connection closes.
 */
async function provider(t: { after: (fn: () => void) => void }) {
  const closed: string[] = [];
  const encodings: Array<string | undefined> = [];
  const server = http.createServer((req, res) => {
    encodings.push(req.headers['accept-encoding']);
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const prompt = String(JSON.parse(body).messages.at(-1).content);
      res.on('close', () => closed.push(prompt));
      const sse = () => res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (prompt === 'fail') {
        res.writeHead(429, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Slow down', type: 'rate_limit' } }));
      } else if (prompt === 'cut') {
        sse();
        res.write(chunk({ role: 'assistant', content: '' }) + chunk({ content: 'kept ' }));
        setTimeout(() => res.socket?.destroy(), 50);
      } else if (prompt === 'hang') {
        sse();
        res.write(chunk({ role: 'assistant', content: 'first ' }));
      } else if (prompt === 'elsewhere' && req.url === '/v1/chat/completions') {
        res.writeHead(307, { location: `http://localhost:${port}/v1/chat/completions` }).end();
      } else if (prompt === 'moved' && req.url === '/v1/chat/completions') {
        res.writeHead(307, { location: '/v2/chat/completions' }).end();
      } else {
        sse();
        res.end(
          [
            chunk({ role: 'assistant', content: '' }),
            ...words.map((w) => chunk({ content: w })),
            finish,
            DONE,
          ].join(''),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;
  const model = createOpenAI({
    baseURL: `http://127.0.0.1:${port}/v1`,
    apiKey: 'k',
    fetch: providerFetch,
  }).chat('m');
  return { model, closed, port, encodings };
}

/** The streamed text and the error of a turn. */
async function answer(result: ReturnType<typeof streamText>) {
  const parts: string[] = [];
  let error: unknown;
  try {
    for await (const part of result.stream) {
      if (part.type === 'text-delta') parts.push(part.text);
      if (part.type === 'error') error = part.error;
    }
  } catch (err) {
    // A body that fails mid-answer is thrown by the stream (so it is with fetch too).
    error = err;
  }
  return { parts, error };
}

test('an answer streams through the provider fetch merged, text unchanged; a 429 is the provider error', async (t) => {
  const { model, encodings } = await provider(t);
  const ok = await answer(streamText({ model, prompt: 'hi', maxRetries: 0 }));
  assert.equal(ok.parts.join(''), words.join(''));
  assert.equal(ok.parts.length, 1, 'one merged delta');
  assert.deepEqual(encodings, ['identity'], 'an uncompressed answer (nothing here would decompress it)');
  const failed = await answer(streamText({ model, prompt: 'fail', maxRetries: 0, onError: () => {} }));
  assert.ok(APICallError.isInstance(failed.error));
  assert.equal(failed.error.statusCode, 429);
  assert.match(failed.error.message, /Slow down/);
  assert.equal(
    describeProviderError(failed.error),
    'The model provider is rate limiting us (HTTP 429). Wait a moment, then retry.',
  );
});

test('a provider that is not listening is "could not reach", as with fetch', async () => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  const model = createOpenAI({
    baseURL: `http://127.0.0.1:${port}/v1`,
    apiKey: 'k',
    fetch: providerFetch,
  }).chat('m');
  const { error } = await answer(streamText({ model, prompt: 'hi', maxRetries: 0, onError: () => {} }));
  assert.ok(APICallError.isInstance(error), String(error));
  assert.match(error.message, /Cannot connect to API/);
  assert.equal(
    describeProviderError(error),
    'Could not reach the model provider. Check that it is running and reachable.',
  );
});

test('a connection cut mid-answer keeps the text before it and reads as a lost connection', async (t) => {
  const { model } = await provider(t);
  const { parts, error } = await answer(
    streamText({ model, prompt: 'cut', maxRetries: 0, onError: () => {} }),
  );
  assert.equal(parts.join(''), 'kept ');
  assert.ok(APICallError.isInstance(error));
  assert.match(String(error.cause), /TypeError: terminated/);
  assert.equal(
    describeProviderError(error),
    'The connection to the model provider was lost mid-answer. Retry to continue.',
  );
});

test('Stop (the abort signal) mid-answer ends the turn and closes the connection to the provider', async (t) => {
  const { model, closed } = await provider(t);
  const stop = new AbortController();
  const result = streamText({
    model,
    prompt: 'hang',
    maxRetries: 0,
    abortSignal: stop.signal,
    onError: () => {},
  });
  const seen: string[] = [];
  let aborted = false;
  for await (const part of result.stream) {
    if (part.type === 'text-delta') {
      seen.push(part.text);
      stop.abort();
    }
    if (part.type === 'abort') aborted = true;
  }
  assert.deepEqual(seen, ['first ']);
  assert.ok(aborted);
  for (let i = 0; i < 100 && !closed.includes('hang'); i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(closed, ['hang']);
});

test('a redirect is followed within the provider origin only; the API key never goes elsewhere', async (t) => {
  const { model } = await provider(t);
  const moved = await answer(streamText({ model, prompt: 'moved', maxRetries: 0 }));
  assert.equal(moved.parts.join(''), words.join(''));
  const elsewhere = await answer(
    streamText({ model, prompt: 'elsewhere', maxRetries: 0, onError: () => {} }),
  );
  assert.match(
    String((elsewhere.error as Error).message),
    /redirected to http:\/\/localhost:\d+\/v1\/chat\/completions, another origin/,
  );
});

test('with NODE_USE_ENV_PROXY=1 the provider is called through HTTP_PROXY (HTTPS_PROXY for https), as Node’s fetch does', async (t) => {
  const { model, port } = await provider(t);
  // A CONNECT proxy that records where it tunnels to.
  const tunnels: string[] = [];
  const proxy = http.createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, client, head) => {
    tunnels.push(String(req.url));
    const [host, target] = String(req.url).split(':');
    const upstream = net.connect(Number(target), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const keys = ['NODE_USE_ENV_PROXY', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
  const saved = Object.fromEntries(keys.map((key) => [key, process.env[key]]));
  t.after(() => {
    for (const [key, value] of Object.entries(saved))
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    dropProcessState('providerAgent');
    proxy.close();
  });
  for (const key of keys) delete process.env[key];
  process.env.NODE_USE_ENV_PROXY = '1';
  process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  dropProcessState('providerAgent');
  const { parts } = await answer(streamText({ model, prompt: 'hi', maxRetries: 0 }));
  assert.equal(parts.join(''), words.join(''));
  assert.deepEqual(tunnels, [`127.0.0.1:${port}`]);
});

test('a reader that stops reading stops the provider’s socket: what is held in memory stays bounded', async (t) => {
  const LIMIT = 64 * 1024 * 1024;
  let sent = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // Comments are never merged: each read the client makes is passed on as it came.
    const event = `: ${'x'.repeat(1024)}\n\n`;
    const pump = () => {
      while (sent < LIMIT) {
        sent += event.length;
        if (!res.write(event)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  const res = await providerFetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
    method: 'POST',
    body: '{}',
  });
  // Nothing reads the body. Without backpressure the client would take all 64 MB into memory in well
  // under a second; with it, the server's writes wait once the socket buffers are full (a few MB).
  await new Promise((r) => setTimeout(r, 1500));
  assert.ok(sent < LIMIT / 4, `the server sent ${sent} bytes to a reader that reads nothing`);
  // Reading again resumes the socket.
  const reader = res.body!.getReader();
  const before = sent;
  for (let i = 0; i < 100_000 && sent === before; i++) await reader.read();
  assert.ok(sent > before, 'the server goes on once the reader reads');
  await reader.cancel();
});
