import 'server-only';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { NULL_BODY } from '@/lib/net/capped-body';

type Message = { id?: unknown; method?: unknown; params?: { requestId?: unknown } };

function messageOf(init: RequestInit | undefined): Message | undefined {
  if (init?.method !== 'POST' || typeof init.body !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(init.body);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Message) : undefined;
  } catch {
    return undefined;
  }
}

/** `body`, calling `end` once it is read to its end, fails or is cancelled. */
function onEnd(body: ReadableStream<Uint8Array>, end: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        end();
        controller.close();
      } catch (err) {
        end();
        controller.error(err);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}

/**
 * Over Streamable HTTP a request is answered in the response to its POST. When the request ends on our
 * side (its timeout, or Stop), the SDK sends notifications/cancelled but went on reading that response:
 * a server trickling it kept the connection, and what it sent, as long as it liked — one more for every
 * call. This fetch (one per transport: request ids are per session) aborts a request's POST once its
 * cancellation is sent.
 */
export function abortOnCancel(inner: FetchLike): FetchLike {
  const pending = new Map<unknown, AbortController>();
  return async (input: string | URL, init?: RequestInit) => {
    const message = messageOf(init);
    if (message?.method === 'notifications/cancelled')
      pending.get(message.params?.requestId)?.abort(new Error('The request was cancelled.'));
    if (message?.id === undefined || typeof message.method !== 'string') return inner(input, init);
    const id = message.id;
    const controller = new AbortController();
    pending.set(id, controller);
    const end = () => {
      if (pending.get(id) === controller) pending.delete(id);
    };
    try {
      const signal = init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
      const res = await inner(input, { ...init, signal });
      if (!res.body || NULL_BODY.has(res.status)) {
        end();
        return res;
      }
      return new Response(onEnd(res.body, end), {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    } catch (err) {
      end();
      throw err;
    }
  };
}
