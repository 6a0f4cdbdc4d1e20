import 'server-only';
import { JsonToSseTransformStream, type UIMessageChunk } from 'ai';
import { MemoryTurnBuffer, type TurnBuffer } from '@/lib/chat/turn-buffer';
import { AppError } from '@/lib/errors';
import { processState } from '@/lib/process-state';

/**
 * The turns running in this process, one per conversation at most. A turn is a server-side job: it
 * is registered before its first write, runs detached from the request that started it (a closed tab
 * or a dropped connection does not stop it), and ends when its answer is stored and its stream is
 * fully buffered. Every client — the tab that started it, a reload, another tab — reads it from the
 * turn buffer. Stop, deleting the conversation and shutdown abort it; each waits until its answer is
 * stored, so whatever comes next (an edit that drops the answer, a process exit) sees the final state.
 */
type Running = { turnId: string; controller: AbortController; done: Promise<void>; end: () => void };
type State = { turns: Map<string, Running>; buffer: TurnBuffer & { heldBytes?: number }; closing: boolean };
declare module '@/lib/process-state' {
  interface OwnedSlots {
    runningTurns: State;
  }
}
const state = (): State =>
  processState('runningTurns', () => ({ turns: new Map(), buffer: new MemoryTurnBuffer(), closing: false }));

export type TurnHandle = { turnId: string; signal: AbortSignal; end: () => void };

/** How long a stop waits for the stopped answer to be stored. */
const STOP_WAIT_MS = 8_000;

let turnSeq = 0;

/** Registers a turn for the conversation; 409 while another one runs there, 503 while shutting down. */
export function beginTurn(conversationId: string): TurnHandle {
  const { turns, closing } = state();
  if (closing) throw new AppError('unavailable', 'The server is restarting. Try again in a moment.');
  if (turns.has(conversationId)) {
    throw new AppError(
      'conflict',
      'An answer is still being written in this conversation. Stop it first, or wait for it to finish.',
    );
  }
  const controller = new AbortController();
  const turnId = `${process.pid}-${++turnSeq}`;
  let end = () => {};
  const done = new Promise<void>((resolve) => {
    end = () => {
      if (turns.get(conversationId)?.controller === controller) turns.delete(conversationId);
      resolve();
    };
  });
  turns.set(conversationId, { turnId, controller, done, end });
  return { turnId, signal: controller.signal, end };
}

export function isTurnRunning(conversationId: string): boolean {
  return state().turns.has(conversationId);
}

/**
 * Runs the turn's UI message stream to its end on the server, whoever listens: each chunk is encoded
 * once as an SSE event into the turn buffer. `preamble` (chunks that rebuild a stored answer the turn
 * continues) goes first, for readers that replay from the start. Returns the stream for the client
 * that started the turn, without the preamble (it has that answer already).
 */
export function publishTurn(
  conversationId: string,
  turn: TurnHandle,
  stream: ReadableStream<UIMessageChunk>,
  preamble: UIMessageChunk[] = [],
): ReadableStream<Uint8Array> {
  const { buffer } = state();
  buffer.open(conversationId, turn.turnId);
  // The same SSE event format as JsonToSseTransformStream, which encodes the live chunks below.
  const encoder = new TextEncoder();
  for (const chunk of preamble)
    buffer.append(conversationId, turn.turnId, encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
  const events = stream.pipeThrough(new JsonToSseTransformStream()).pipeThrough(new TextEncoderStream());
  void (async () => {
    const reader = events.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer.append(conversationId, turn.turnId, value);
      }
    } catch (err) {
      console.error('[chat] a turn stream failed', err);
    } finally {
      buffer.close(conversationId, turn.turnId);
      turn.end();
    }
  })();
  const own = buffer.read(conversationId, preamble.length);
  if (!own) throw new Error('turn buffer refused a new turn');
  return own;
}

/** The running (or just ended) turn of a conversation, replayed from its start; null when there is none. */
export function readTurn(conversationId: string): ReadableStream<Uint8Array> | null {
  return state().buffer.read(conversationId, 0);
}

/** Stops the conversation's running turn, if any, and waits until its answer is stored. */
export async function stopTurn(conversationId: string): Promise<boolean> {
  const running = state().turns.get(conversationId);
  if (!running) return false;
  running.controller.abort(new Error('Stopped'));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([running.done, new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
  clearTimeout(timer);
  return true;
}

/** Shutdown: refuse new turns, stop every running one, and wait (bounded) until their answers are stored. */
export async function stopAllTurns(): Promise<number> {
  const s = state();
  s.closing = true;
  const ids = [...s.turns.keys()];
  await Promise.all(ids.map((id) => stopTurn(id)));
  return ids.length;
}

/** How many turns run now (metrics, benchmark). */
export function runningTurnCount(): number {
  return state().turns.size;
}

/** Bytes held by running and recently ended turns (metrics, benchmark). */
export function turnBufferBytes(): number {
  return state().buffer.heldBytes ?? 0;
}
