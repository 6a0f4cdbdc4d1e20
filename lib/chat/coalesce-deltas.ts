import type { LanguageModelV4Middleware, LanguageModelV4StreamPart } from '@ai-sdk/provider';

type Delta = Extract<LanguageModelV4StreamPart, { type: 'text-delta' | 'reasoning-delta' }>;

const isDelta = (part: LanguageModelV4StreamPart): part is Delta =>
  part.type === 'text-delta' || part.type === 'reasoning-delta';

/**
 * Merges the text (and reasoning) deltas that reach the server in one network read into one delta.
 *
 * A provider that answers faster than it is read (a local model, a burst after a stall) hands over
 * dozens of tokens per read; each chunk otherwise walks a dozen web-stream stages (AI SDK step handling,
 * UI message chunks, SSE encoding) to end up in the same TCP write. Deltas are held only until the
 * current event-loop turn ends (`setImmediate`), so a model that streams token by token is passed on
 * token by token, and the text is unchanged: only its chunking is.
 */
export function coalesceDeltas(): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  let pending: Delta | undefined;
  let timer: ReturnType<typeof setImmediate> | undefined;
  let controller: TransformStreamDefaultController<LanguageModelV4StreamPart> | undefined;
  const release = () => {
    if (timer) clearImmediate(timer);
    timer = undefined;
    if (!pending) return;
    const part = pending;
    pending = undefined;
    try {
      controller?.enqueue(part);
    } catch {
      // the stream was cancelled meanwhile (Stop, disconnect): nothing is waiting for this text
    }
  };
  return new TransformStream({
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
        timer = setImmediate(release);
        return;
      }
      release();
      c.enqueue(part);
    },
    flush: release,
  });
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
