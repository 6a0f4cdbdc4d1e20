import 'server-only';

/**
 * The chunks of running turns, so any client can replay a turn from its start and then follow it
 * live (a reload, a second tab, a phone opened later). Chunks are the SSE events of the UI message
 * stream, encoded once and shared by every reader; each has a sequence number (its index), and the
 * end is a marker. This interface is what a shared store (Redis Streams) implements for more than
 * one instance: a turn is keyed by its conversation, chunks are appended in order, a reader asks for
 * "from sequence n, then live", and an ended turn expires a little later.
 */
export interface TurnBuffer {
  /** Starts a turn's buffer (replacing an ended one of the same conversation). */
  open(conversationId: string, turnId: string): void;
  /** Appends one SSE event of the turn; false when the turn is over its byte budget (not buffered). */
  append(conversationId: string, turnId: string, event: Uint8Array): boolean;
  /** Marks the turn's end; readers finish after the last chunk, and the buffer expires later. */
  close(conversationId: string, turnId: string): void;
  /**
   * The turn's stream from chunk `from` on, then live until its end; null when none is buffered. A
   * shared store answers asynchronously (it asks Redis whether the turn exists).
   */
  read(
    conversationId: string,
    from?: number,
  ): ReadableStream<Uint8Array> | null | Promise<ReadableStream<Uint8Array> | null>;
  /** The stream of a turn this instance has just opened and writes, from chunk `from` on (never null). */
  follow(conversationId: string, turnId: string, from: number): ReadableStream<Uint8Array>;
}

type Turn = {
  turnId: string;
  chunks: Uint8Array[];
  bytes: number;
  ended: boolean;
  /** Past the per-turn byte cap: the turn goes on, but it can no longer be replayed from its start. */
  overflow: boolean;
  /** Resolved (and replaced) whenever a chunk arrives or the turn ends, to wake waiting readers. */
  changed: Promise<void>;
  wake: () => void;
  expiry?: NodeJS.Timeout;
};

export type MemoryTurnBufferOptions = {
  /** Bytes one turn may hold (a 100,000-word answer is ~6 MB of chunks). */
  maxTurnBytes: number;
  /** Bytes all turns together may hold. */
  maxTotalBytes: number;
  /** How long an ended turn stays readable (a reload racing the end still gets the whole answer). */
  keepEndedMs: number;
};

const DEFAULTS: MemoryTurnBufferOptions = {
  maxTurnBytes: 16 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  keepEndedMs: 30_000,
};

/** The one-process implementation: arrays in memory, readers woken by a promise per turn. */
export class MemoryTurnBuffer implements TurnBuffer {
  private readonly turns = new Map<string, Turn>();
  private total = 0;
  private readonly options: MemoryTurnBufferOptions;

  constructor(options: Partial<MemoryTurnBufferOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Bytes held now, over all turns (for metrics and the benchmark). */
  get heldBytes(): number {
    return this.total;
  }

  open(conversationId: string, turnId: string): void {
    this.drop(conversationId);
    const turn: Turn = {
      turnId,
      chunks: [],
      bytes: 0,
      ended: false,
      overflow: false,
      changed: Promise.resolve(),
      wake: () => {},
    };
    this.rearm(turn);
    this.turns.set(conversationId, turn);
  }

  append(conversationId: string, turnId: string, event: Uint8Array): boolean {
    const turn = this.turns.get(conversationId);
    if (!turn || turn.turnId !== turnId || turn.ended) return false;
    if (turn.overflow) return false;
    if (
      turn.bytes + event.byteLength > this.options.maxTurnBytes ||
      this.total + event.byteLength > this.options.maxTotalBytes
    ) {
      // Too big to replay: the turn goes on and is stored at its end, but readers stop after what is
      // buffered (and new ones get nothing); the client then shows the stored answer once it is there.
      turn.overflow = true;
      turn.wake();
      return false;
    }
    turn.chunks.push(event);
    turn.bytes += event.byteLength;
    this.total += event.byteLength;
    turn.wake();
    return true;
  }

  close(conversationId: string, turnId: string): void {
    const turn = this.turns.get(conversationId);
    if (!turn || turn.turnId !== turnId || turn.ended) return;
    turn.ended = true;
    turn.wake();
    turn.expiry = setTimeout(() => {
      if (this.turns.get(conversationId) === turn) this.drop(conversationId);
    }, this.options.keepEndedMs);
    turn.expiry.unref();
  }

  read(conversationId: string, from = 0): ReadableStream<Uint8Array> | null {
    const turn = this.turns.get(conversationId);
    if (!turn || turn.overflow) return null;
    let next = from;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        for (;;) {
          if (next < turn.chunks.length) {
            while (next < turn.chunks.length) controller.enqueue(turn.chunks[next++] as Uint8Array);
            return;
          }
          if (turn.ended || turn.overflow) {
            controller.close();
            return;
          }
          await turn.changed;
        }
      },
    });
  }

  follow(conversationId: string, turnId: string, from: number): ReadableStream<Uint8Array> {
    const stream = this.turns.get(conversationId)?.turnId === turnId ? this.read(conversationId, from) : null;
    if (!stream) throw new Error('turn buffer refused a new turn');
    return stream;
  }

  private rearm(turn: Turn): void {
    turn.changed = new Promise<void>((resolve) => {
      turn.wake = () => {
        resolve();
        this.rearm(turn);
      };
    });
  }

  private drop(conversationId: string): void {
    const turn = this.turns.get(conversationId);
    if (!turn) return;
    clearTimeout(turn.expiry);
    this.total -= turn.bytes;
    // Readers still replaying an ended turn keep their reference and finish reading it.
    this.turns.delete(conversationId);
  }
}
