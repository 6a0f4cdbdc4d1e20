import type { Progress } from '@modelcontextprotocol/sdk/types.js';

/** At most one progress update of a call reaches the answer's stream this often. */
export const PROGRESS_EVERY_MS = 100;
/** How much of a progress message is passed on. */
export const MAX_PROGRESS_MESSAGE = 500;

/**
 * A server's progress notifications as a tool card gets them: at most one per PROGRESS_EVERY_MS (the
 * latest one held meanwhile) with the message cut to MAX_PROGRESS_MESSAGE. A server may send thousands a
 * second, each with megabytes of message, and every one became a chunk of the answer's stream.
 * `flush` passes on what is held (the call answered), `drop` forgets it (the call failed).
 */
export function throttleProgress(emit: (p: Progress) => void): {
  push: (p: Progress) => void;
  flush: () => void;
  drop: () => void;
} {
  let last = Number.NEGATIVE_INFINITY;
  let held: Progress | null = null;
  let timer: NodeJS.Timeout | null = null;
  const send = (p: Progress) => {
    last = Date.now();
    emit(p);
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (held) send(held);
    held = null;
  };
  return {
    push(p) {
      const message =
        typeof p.message === 'string' && p.message.length > MAX_PROGRESS_MESSAGE
          ? `${p.message.slice(0, MAX_PROGRESS_MESSAGE)}…`
          : p.message;
      const update: Progress = {
        progress: p.progress,
        total: p.total,
        ...(message !== undefined && { message }),
      };
      const wait = last + PROGRESS_EVERY_MS - Date.now();
      if (wait <= 0 && !timer) return send(update);
      held = update;
      timer ??= setTimeout(flush, Math.max(0, wait));
      timer.unref?.();
    },
    flush,
    drop() {
      held = null;
      flush();
    },
  };
}
