import 'server-only';
import { AppError } from '@/lib/errors';

/**
 * The turns running in this process, one per conversation at most. A turn is registered before its
 * first write and ends when its answer is stored (or it failed to start). Stopping a turn aborts it and
 * waits until its answer is stored, so whatever comes next (an edit that drops the answer) sees the
 * final state and the old answer can never be written back afterwards.
 */
type Running = { controller: AbortController; done: Promise<void>; end: () => void };
const g = globalThis as unknown as { __runningTurns?: Map<string, Running> };
const turns = (): Map<string, Running> => {
  g.__runningTurns ??= new Map();
  return g.__runningTurns;
};

export type TurnHandle = { signal: AbortSignal; end: () => void };

/** How long a stop waits for the stopped answer to be stored before giving up with 409. */
const STOP_WAIT_MS = 10_000;

/** Registers a turn for the conversation; 409 while another one runs there. Synchronous, so no race. */
export function beginTurn(conversationId: string): TurnHandle {
  const map = turns();
  if (map.has(conversationId)) {
    throw new AppError(
      'conflict',
      'An answer is still being written in this conversation. Stop it first, or wait for it to finish.',
    );
  }
  const controller = new AbortController();
  let end = () => {};
  const done = new Promise<void>((resolve) => {
    end = () => {
      if (map.get(conversationId)?.controller === controller) map.delete(conversationId);
      resolve();
    };
  });
  map.set(conversationId, { controller, done, end });
  return { signal: controller.signal, end };
}

export function isTurnRunning(conversationId: string): boolean {
  return turns().has(conversationId);
}

/** Stops the conversation's running turn, if any, and waits until its answer is stored. */
export async function stopTurn(conversationId: string): Promise<boolean> {
  const running = turns().get(conversationId);
  if (!running) return false;
  running.controller.abort(new Error('Stopped'));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([running.done, new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
  clearTimeout(timer);
  return true;
}
