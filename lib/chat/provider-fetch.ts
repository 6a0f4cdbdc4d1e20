import 'server-only';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher, EnvHttpProxyAgent, request } from 'undici';
import { SseCoalescer } from '@/lib/chat/coalesce-sse';
import { sameOriginRedirects } from '@/lib/net/guarded-fetch';
import { processState } from '@/lib/process-state';

/** Statuses whose response has no body (a Response refuses one). */
const NULL_BODY = new Set([204, 205, 304]);
/** Merged events a consumer may leave unread before the provider's socket is paused. */
const QUEUED_EVENTS = 64;

/**
 * The fetch the model providers' client uses: undici's request API instead of fetch, so a streamed
 * answer (text/event-stream) is read as plain socket reads and merged by {@link SseCoalescer} before
 * anything is made of it. The AI SDK's web streams then only see the merged events: with fetch, each
 * of the ~200 reads of a paced 200-word answer first went through fetch's own body stream and a
 * transform stage (~30 µs each). Behaves as fetch does where the SDK can tell: a connection that fails
 * is a `TypeError('fetch failed')` with the cause, a body cut mid-answer fails with
 * `TypeError('terminated')`, an aborted request fails with the signal's reason. Redirects are followed
 * within the provider's origin only (an API key never follows one elsewhere). Calls it cannot make this
 * way (a Request object, a body that is not a string) go through the global fetch.
 */
export const providerFetch: typeof fetch = sameOriginRedirects(async (input, init) => {
  const body = init?.body;
  if (input instanceof Request || (body != null && typeof body !== 'string')) {
    return globalThis.fetch(input, init);
  }
  const signal = init?.signal ?? undefined;
  let res: Dispatcher.ResponseData;
  try {
    res = await request(input instanceof URL ? input.href : input, {
      method: (init?.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: headerRecord(init?.headers),
      body: body ?? undefined,
      signal,
      dispatcher: processState('providerAgent', newAgent),
    });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw new TypeError('fetch failed', { cause: err });
  }
  const headers = responseHeaders(res.headers);
  const responseInit = { status: res.statusCode, statusText: res.statusText, headers };
  if (NULL_BODY.has(res.statusCode) || init?.method === 'HEAD') {
    res.body.dump().catch(() => {});
    return new Response(null, responseInit);
  }
  if (res.statusCode < 300 && headers.get('content-type')?.includes('text/event-stream')) {
    headers.delete('content-length');
    return new Response(coalescedBody(res.body, signal), responseInit);
  }
  return new Response(Readable.toWeb(res.body) as ReadableStream<Uint8Array>, responseInit);
});

/**
 * Keeps its connections. With NODE_USE_ENV_PROXY=1 (or `--use-env-proxy`), through HTTP_PROXY,
 * HTTPS_PROXY and NO_PROXY, as Node's own fetch then does.
 */
function newAgent(): Dispatcher {
  const envProxy = process.env.NODE_USE_ENV_PROXY === '1' || process.execArgv.includes('--use-env-proxy');
  return envProxy ? new EnvHttpProxyAgent() : new Agent();
}

/** The SSE body as a web stream of merged events; see the module comment. */
function coalescedBody(source: Readable, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let coalescer: SseCoalescer;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        coalescer = new SseCoalescer((text) => {
          try {
            controller.enqueue(encoder.encode(text));
            if ((controller.desiredSize ?? 1) <= 0) source.pause();
          } catch {
            // cancelled meanwhile (Stop, disconnect): nothing is waiting for this text
          }
        });
        source.on('data', (bytes: Buffer) => coalescer.push(bytes));
        source.on('end', () => {
          coalescer.end();
          try {
            controller.close();
          } catch {}
        });
        source.on('error', (err) => {
          // What is held reaches the reader before the error: the text before a cut connection is kept.
          coalescer.stop();
          try {
            controller.error(signal?.aborted ? signal.reason : new TypeError('terminated', { cause: err }));
          } catch {}
        });
      },
      pull() {
        if (source.isPaused()) source.resume();
      },
      cancel() {
        coalescer.stop();
        source.destroy();
      },
    },
    new CountQueuingStrategy({ highWaterMark: QUEUED_EVENTS }),
  );
}

/**
 * The request's headers as a record, asking for an uncompressed answer unless the caller chose: fetch
 * would decompress one, this request API does not (and a compressed stream arrives in bursts anyway).
 */
function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  const record =
    headers instanceof Headers || Array.isArray(headers)
      ? Object.fromEntries(new Headers(headers))
      : { ...(headers as Record<string, string> | undefined) };
  if (!Object.keys(record).some((name) => name.toLowerCase() === 'accept-encoding'))
    record['accept-encoding'] = 'identity';
  return record;
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}
