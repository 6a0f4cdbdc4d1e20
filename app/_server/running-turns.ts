import 'server-only';
import { randomBytes } from 'node:crypto';
import type { UIMessageChunk } from 'ai';
import { MemoryTurnBuffer, type TurnBuffer } from '@/lib/chat/turn-buffer';
import { AppError } from '@/lib/errors';
import { processState } from '@/lib/process-state';
import { sharedBus } from '@/lib/shared/bus';
import { sharedRedis } from '@/lib/shared/redis';
import { RedisTurnBuffer } from '@/lib/shared/redis-turn-buffer';
import { type StopOutcome, TurnLeases } from '@/lib/shared/turn-leases';
import { loggable } from '@/lib/loggable';

/**
 * The turns running in this process, one per conversation at most. A turn is a server-side job: it
 * is registered before its first write, runs detached from the request that started it (a closed tab
 * or a dropped connection does not stop it), and ends when its answer is stored and its stream is
 * fully buffered. Every client — the tab that started it, a reload, another tab — reads it from the
 * turn buffer. Stop, deleting the conversation and shutdown abort it; each waits until its answer is
 * stored, so whatever comes next (an edit that drops the answer, a process exit) sees the final state.
 * With REDIS_URL (SPEC §7.5) the buffer is Redis Streams and each turn holds a lease on its
 * conversation (lib/shared/turn-leases.ts): any instance resumes, detects and stops any instance's turn.
 */
type Running = {
  turnId: string;
  /** Whether this instance got the conversation's lease (true at once without REDIS_URL). */
  claimed: Promise<boolean>;
  /** Whose turn it is (a new conversation's turn runs before any stored row names its owner). */
  userId?: string;
  controller: AbortController;
  done: Promise<void>;
  end: () => void;
};
type State = {
  turns: Map<string, Running>;
  buffer: TurnBuffer & { heldBytes?: number };
  closing: boolean;
  /** Leases and Stop across instances; null without REDIS_URL. */
  leases: TurnLeases | null;
};
declare module '@/lib/process-state' {
  interface OwnedSlots {
    runningTurns: State;
  }
}
const state = (): State => processState('runningTurns', createState);

function createState(): State {
  const redis = sharedRedis();
  const bus = sharedBus();
  if (!redis || !bus)
    return { turns: new Map(), buffer: new MemoryTurnBuffer(), closing: false, leases: null };
  // Another instance asked to stop a turn that runs here: abort it; its end releases the lease and says "stored".
  const abortLocal = (id: string) => state().turns.get(id)?.controller.abort(new Error('Stopped'));
  const leases = new TurnLeases(redis, bus, abortLocal);
  void leases.start().catch((err) => console.error('[redis] could not listen for stop requests', err));
  return { turns: new Map(), buffer: new RedisTurnBuffer(redis), closing: false, leases };
}

/** With REDIS_URL, the leases of every instance's turns (the cut-turn sweep reads them); else null. */
export function sharedTurnLeases(): TurnLeases | null {
  return state().leases;
}

/** Whether a turn of the conversation runs (or is being claimed) in this process. */
export function runsHere(conversationId: string): boolean {
  return state().turns.has(conversationId);
}

export type TurnHandle = { turnId: string; signal: AbortSignal; end: () => void };

/** How long a stop waits for the stopped answer to be stored. */
const STOP_WAIT_MS = 8_000;

let turnSeq = 0;
/** Turn ids are unique across instances too (two containers may both run as pid 1). */
const PROCESS_TAG = `${process.pid}.${randomBytes(4).toString('hex')}`;

const conflict = () =>
  new AppError(
    'conflict',
    'An answer is still being written in this conversation. Stop it first, or wait for it to finish.',
  );

/**
 * Registers a turn for the conversation; 409 while another one runs there (on any instance), 503 while
 * shutting down. Its buffer opens at once: a reload or another tab while the turn is still prepared
 * follows this turn (not the one before it), and its end (however early) closes the buffer.
 */
export async function beginTurn(conversationId: string, userId?: string): Promise<TurnHandle> {
  const { turns, closing, leases, buffer } = state();
  if (closing) throw new AppError('unavailable', 'The server is restarting. Try again in a moment.');
  if (turns.has(conversationId)) throw conflict();
  const controller = new AbortController();
  const turnId = `${PROCESS_TAG}-${++turnSeq}`;
  let end = () => {};
  const done = new Promise<void>((resolve) => {
    end = () => {
      if (turns.get(conversationId)?.controller !== controller) return resolve();
      buffer.close(conversationId, turnId);
      turns.delete(conversationId);
      if (!leases) return resolve();
      // The answer is stored: free the conversation for every instance and tell a waiting stopper
      // (done once that is sent, so a shutdown closes Redis only after it).
      leases
        .release(conversationId, turnId)
        .catch((err) => console.error('[redis] could not release a turn lease', err))
        .finally(resolve);
    };
  });
  // Registered before the lease is asked for, so a second request here is refused without a round trip.
  const claiming = leases ? leases.claim(conversationId, turnId, userId) : Promise.resolve(true);
  const claimed = claiming.catch(() => false);
  turns.set(conversationId, { turnId, claimed, userId, controller, done, end });
  if (leases) {
    let got = false;
    try {
      got = await claiming;
    } catch (err) {
      turns.delete(conversationId);
      console.error('[redis] could not claim a turn lease', err);
      throw new AppError('unavailable', 'The shared store is not reachable. Try again in a moment.');
    }
    if (!got) {
      turns.delete(conversationId);
      throw conflict();
    }
  }
  buffer.open(conversationId, turnId);
  return { turnId, signal: controller.signal, end };
}

/** Whether a turn runs in the conversation, here or (with REDIS_URL) on any instance. */
export async function isTurnRunning(conversationId: string): Promise<boolean> {
  const { turns, leases } = state();
  if (turns.has(conversationId)) return true;
  return leases ? leases.isRunning(conversationId) : false;
}

/** Chunks a turn writes before the answer's first part: the turn's own, and a part's opening without content. */
const BEFORE_OUTPUT = new Set<UIMessageChunk['type']>([
  'start',
  'start-step',
  'data-notice',
  'text-start',
  'reasoning-start',
]);

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
  /** Called once the answer's first part is out (text, a tool call, an error), or the stream ended. */
  onFirstOutput: () => void = () => {},
  /** Awaited once after the first part is out, before the rest of the answer is read. */
  beforeRest: () => Promise<void> = async () => {},
): ReadableStream<Uint8Array> {
  // Open since the turn began (beginTurn).
  const { buffer } = state();
  // The AI SDK's SSE format (JsonToSseTransformStream), encoded here: two stream stages fewer per chunk.
  const encoder = new TextEncoder();
  const event = (chunk: unknown) => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
  for (const chunk of preamble) buffer.append(conversationId, turn.turnId, event(chunk));
  void (async () => {
    const reader = stream.getReader();
    let shown = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer.append(conversationId, turn.turnId, event(value));
        if (!shown && !BEFORE_OUTPUT.has(value.type)) {
          shown = true;
          onFirstOutput();
          await beforeRest();
        }
      }
      buffer.append(conversationId, turn.turnId, encoder.encode('data: [DONE]\n\n'));
    } catch (err) {
      console.error('[chat] a turn stream failed', loggable(err));
    } finally {
      onFirstOutput();
      buffer.close(conversationId, turn.turnId);
      turn.end();
    }
  })();
  return buffer.follow(conversationId, turn.turnId, preamble.length);
}

/** The running (or just ended) turn of a conversation, replayed from its start; null when there is none. */
export async function readTurn(conversationId: string): Promise<ReadableStream<Uint8Array> | null> {
  return state().buffer.read(conversationId, 0);
}

/**
 * Stops the conversation's running turn, if any (on any instance), and waits (bounded) until its answer is
 * stored: 'stored', 'unsettled' when the wait ran out, 'none' when no turn ran.
 */
export async function stopTurn(conversationId: string): Promise<StopOutcome> {
  const { turns, leases } = state();
  const running = turns.get(conversationId);
  // Not here, or here only asking for the lease another instance holds: that instance's turn is stopped.
  if (!running || !(await running.claimed))
    return leases ? leases.requestStop(conversationId, STOP_WAIT_MS) : 'none';
  running.controller.abort(new Error('Stopped'));
  return (await within(running.done, STOP_WAIT_MS)) ? 'stored' : 'unsettled';
}

/** Whether `promise` settles within `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  const settled = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return settled;
}

/**
 * Waits (at most `ms`) while a turn claimed by someone other than `userId` holds `conversationId`, here or
 * (with REDIS_URL, by its lease) on any instance: another user's request naming the conversation holds it
 * until its preparation finds it is not theirs (a 404), a few ms. True when it has ended; false at once
 * when `userId`'s own turn holds it.
 */
export async function othersClaimEnded(conversationId: string, userId: string, ms: number): Promise<boolean> {
  const { turns, leases } = state();
  const deadline = Date.now() + ms;
  const running = turns.get(conversationId);
  if (running) {
    if (running.userId === undefined || running.userId === userId) return false;
    // Its end, or at once when it was refused the lease (then another claim holds it elsewhere).
    const ended = await within(
      running.claimed.then((got) => (got ? running.done : undefined)),
      ms,
    );
    if (!ended || !leases) return ended;
  }
  return leases ? leases.othersClaimEnded(conversationId, userId, Math.max(0, deadline - Date.now())) : false;
}

/**
 * The conversation's turn (begun) continues an answer after its tool approvals: with other instances,
 * noted so the sweep finds it if this instance dies before the answer is stored again.
 */
export async function noteContinuation(conversationId: string): Promise<void> {
  await state().leases?.noteContinuing(conversationId);
}

/** The conversations of the user's turns running in this process (stored ones, and new ones not stored yet). */
export function localTurnsOf(userId: string): string[] {
  return [...state().turns].flatMap(([id, turn]) => (turn.userId === userId ? [id] : []));
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
