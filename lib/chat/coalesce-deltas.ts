import type { LanguageModelV4Middleware, LanguageModelV4StreamPart } from '@ai-sdk/provider';

type Delta = Extract<LanguageModelV4StreamPart, { type: 'text-delta' | 'reasoning-delta' }>;

const isDelta = (part: LanguageModelV4StreamPart): part is Delta =>
  part.type === 'text-delta' || part.type === 'reasoning-delta';

/** At most one merged delta per stream this often (a model streaming token by token at 20 ms a token → ~1 in 3). */
export const COALESCE_WINDOW_MS = 50;

/**
 * Merges the text (and reasoning) deltas of a model's stream into fewer, larger deltas.
 *
 * Every chunk otherwise walks a dozen web-stream stages (AI SDK step handling, UI message chunks, SSE
 * encoding, the turn buffer) to end up in its own TCP write, and that per-chunk work is most of what a
 * streamed answer costs the server. Deltas that arrive in one network read (one event-loop turn) leave
 * together at the end of that turn (`setImmediate`); after a delta has left, the next ones are held
 * until {@link COALESCE_WINDOW_MS} has passed since, so a model streaming token by token is passed on a
 * few tokens at a time, at most that much later (20 updates a second, smooth to read). The first delta
 * with text is not delayed. Any other part (the end of the text, a tool call, finish) first releases what is
 * held, and so does an error of the source (the text before a cut connection is kept). Only the
 * chunking changes, never the text.
 */
export function coalesceDeltas(): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  let pending: Delta | undefined;
  let immediate: ReturnType<typeof setImmediate> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastRelease = Number.NEGATIVE_INFINITY;
  let controller: TransformStreamDefaultController<LanguageModelV4StreamPart> | undefined;
  const release = () => {
    if (immediate) clearImmediate(immediate);
    if (timer) clearTimeout(timer);
    immediate = undefined;
    timer = undefined;
    if (!pending) return;
    const part = pending;
    pending = undefined;
    // An empty delta (OpenAI's first chunk carries the role and "") starts no window: the first word is not held.
    if (part.delta) lastRelease = Date.now();
    try {
      controller?.enqueue(part);
    } catch {
      // the stream was cancelled meanwhile (Stop, disconnect): nothing is waiting for this text
    }
  };
  // `cancel` (WHATWG Streams, in Node since 21.5) is not in TypeScript's DOM types yet.
  const transformer: Transformer<LanguageModelV4StreamPart, LanguageModelV4StreamPart> & {
    cancel: (reason: unknown) => void;
  } = {
    start(c) {
      controller = c;
    },
    transform(part, c) {
      if (isDelta(part)) {
        if (
          pending &&
          pending.type === part.type &&
          pending.id === part.id &&
          !pending.providerMetadata &&
          !part.providerMetadata
        ) {
          pending = { ...pending, delta: pending.delta + part.delta };
          return;
        }
        release();
        pending = part;
        const wait = lastRelease + COALESCE_WINDOW_MS - Date.now();
        if (wait > 0) timer = setTimeout(release, wait);
        else immediate = setImmediate(release);
        return;
      }
      release();
      c.enqueue(part);
    },
    flush: release,
    // The source failed (a cut connection) or the reader went away: release what is held first.
    cancel: release,
  };
  return new TransformStream(transformer);
}

/** The model middleware form of {@link coalesceDeltas}, for every provider model. */
export function coalesceDeltasMiddleware(): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',
    wrapStream: async ({ doStream }) => {
      const result = await doStream();
      return { ...result, stream: result.stream.pipeThrough(coalesceDeltas()) };
    },
  };
}
