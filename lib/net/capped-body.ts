/**
 * Bounds what is read of a remote server's answers. The SDK reads a JSON answer whole (response.json())
 * and buffers a server-sent event until it ends, with no limit: an answer that never ends would fill the
 * host's memory. Here a JSON (or any other) body, or one event of an event stream, may be at most
 * `maxBytes` (events ending in the same network chunk count together); past that, reading it fails
 * with BodyTooLargeError and the request is let go.
 */

/** As much as one stdio message may be (lib/mcp/transports/stdio.ts). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor(what: string, maxBytes: number) {
    super(
      `The server's ${what} was larger than ${Math.round(maxBytes / (1024 * 1024))} MB; it was not read.`,
    );
    this.name = 'BodyTooLargeError';
  }
}

/** Statuses whose responses have no body (a Response with one cannot be built). */
export const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** Where an event ends: a blank line (LF LF, CR CR, or CR LF CR LF, which holds LF CR LF). */
const EVENT_ENDS = ['\n\n', '\r\r', '\n\r\n'].map((s) => Buffer.from(s));

/** Where the first event end in `buf` starts, and how many bytes follow the last one; null when it holds none. */
function eventEnds(buf: Buffer): { first: number; after: number } | null {
  let first = Number.POSITIVE_INFINITY;
  let after = Number.POSITIVE_INFINITY;
  for (const end of EVENT_ENDS) {
    const at = buf.indexOf(end);
    if (at < 0) continue;
    first = Math.min(first, at);
    after = Math.min(after, buf.length - buf.lastIndexOf(end) - end.length);
  }
  return Number.isFinite(first) ? { first, after } : null;
}

function limit(maxBytes: number, events: boolean): TransformStream<Uint8Array, Uint8Array> {
  let run = 0; // bytes of the body so far, or of the event under way
  let tail = Buffer.alloc(0); // the last bytes, to find an event end split across chunks
  return new TransformStream({
    transform(chunk, controller) {
      let over = false;
      if (events) {
        const buf = Buffer.concat([tail, chunk]);
        const ends = eventEnds(buf);
        // The event under way ends in this chunk (its bytes up to there count), or goes on.
        over = run + (ends ? Math.max(0, ends.first - tail.length) : chunk.length) > maxBytes;
        run = ends ? ends.after : run + chunk.length;
        tail = buf.subarray(Math.max(0, buf.length - 3));
      } else run += chunk.length;
      if (over || run > maxBytes)
        controller.error(new BodyTooLargeError(events ? 'event' : 'answer', maxBytes));
      else controller.enqueue(chunk);
    },
  });
}

/** A fetch whose response bodies are bounded (see above). */
export function cappedBodies(inner: typeof fetch, maxBytes = MAX_BODY_BYTES): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const res = await inner(input, init);
    if (!res.body || NULL_BODY.has(res.status)) return res;
    const events = res.headers.get('content-type')?.includes('text/event-stream') ?? false;
    return new Response(res.body.pipeThrough(limit(maxBytes, events)), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  }) as typeof fetch;
}
