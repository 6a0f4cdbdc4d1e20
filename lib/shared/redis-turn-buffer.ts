import 'server-only';
import type { Redis } from 'ioredis';
import { MemoryTurnBuffer, type MemoryTurnBufferOptions, type TurnBuffer } from '@/lib/chat/turn-buffer';
import { type RedisConnections, redisKey } from '@/lib/shared/redis';

export type RedisTurnBufferOptions = MemoryTurnBufferOptions & {
  /** A running turn's keys expire this long after the last refresh, so a dead instance's turn goes away. */
  runningTtlMs: number;
  /** How long a live reader blocks in XREAD before it checks that the turn still exists. */
  blockMs: number;
};

const DEFAULTS: RedisTurnBufferOptions = {
  maxTurnBytes: 16 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  keepEndedMs: 30_000,
  runningTtlMs: 60_000,
  blockMs: 5_000,
};

/** Entries of a turn's stream: a chunk, the turn's end, or "over its byte cap" (readers stop there). */
const CHUNK = 'c';
const END = 'e';
const OVERFLOW = 'o';

type Writing = { turnId: string; seq: number; overflow: boolean; refresh: NodeJS.Timeout };

/** `mcpchat:turn:<conversation>`: a hash naming the conversation's current turn (`id`) and whether it overflowed. */
const metaKey = (conversationId: string) => redisKey('turn', conversationId);
/** `mcpchat:turn:<conversation>:<turn>`: the turn's chunks as a Redis stream. */
const streamKey = (conversationId: string, turnId: string) => redisKey('turn', conversationId, turnId);

/**
 * The turn buffer shared by every instance, on Redis Streams. The instance running a turn appends each
 * chunk with XADD under an explicit id `0-<n+1>` (chunk n), so "from chunk n" is an id range; the end
 * and the byte-cap overflow are marker entries. Commands go out on one connection in order and are
 * not awaited, so the turn never waits for Redis; the byte accounting (per turn and for the whole
 * instance, as in the memory buffer) is local, and a chunk over a cap is not sent. The running
 * instance also keeps its turns in a local memory buffer, so the client that started a turn (and any
 * reader on the same instance while it runs) reads it without a round trip; readers on other
 * instances replay with XRANGE and then follow live with XREAD BLOCK on a blocking connection.
 * Running keys expire `runningTtlMs` after the last refresh (every third of that while the turn runs),
 * ended ones `keepEndedMs` after the end.
 */
export class RedisTurnBuffer implements TurnBuffer {
  private readonly local: MemoryTurnBuffer;
  private readonly writing = new Map<string, Writing>();
  private readonly options: RedisTurnBufferOptions;
  private lastErrorLog = 0;

  constructor(
    private readonly redis: RedisConnections,
    options: Partial<RedisTurnBufferOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.local = new MemoryTurnBuffer(this.options);
  }

  /** Bytes held by this instance's own turns (running and recently ended). */
  get heldBytes(): number {
    return this.local.heldBytes;
  }

  open(conversationId: string, turnId: string): void {
    this.local.open(conversationId, turnId);
    const previous = this.writing.get(conversationId);
    if (previous) clearInterval(previous.refresh);
    const ttl = this.options.runningTtlMs;
    const refresh = setInterval(() => this.expire(conversationId, turnId, ttl), Math.max(1, ttl / 3));
    refresh.unref();
    this.writing.set(conversationId, { turnId, seq: 0, overflow: false, refresh });
    const meta = metaKey(conversationId);
    this.sent(
      this.redis.command
        .multi()
        .del(meta)
        .hset(meta, 'id', turnId, 'overflow', '0')
        .pexpire(meta, ttl)
        .exec(),
    );
  }

  append(conversationId: string, turnId: string, event: Uint8Array): boolean {
    const ok = this.local.append(conversationId, turnId, event);
    const turn = this.writing.get(conversationId);
    if (!turn || turn.turnId !== turnId) return ok;
    const stream = streamKey(conversationId, turnId);
    if (ok) {
      const id = `0-${++turn.seq}`;
      const bytes = Buffer.from(event.buffer, event.byteOffset, event.byteLength);
      this.sent(this.redis.command.xadd(stream, id, CHUNK, bytes));
      if (turn.seq === 1) this.sent(this.redis.command.pexpire(stream, this.options.runningTtlMs));
    } else if (!turn.overflow) {
      // Over a byte cap: readers elsewhere stop here, and new readers get nothing (as in memory).
      turn.overflow = true;
      this.sent(this.redis.command.xadd(stream, `0-${++turn.seq}`, OVERFLOW, ''));
      this.sent(this.redis.command.hset(metaKey(conversationId), 'overflow', '1'));
    }
    return ok;
  }

  close(conversationId: string, turnId: string): void {
    this.local.close(conversationId, turnId);
    const turn = this.writing.get(conversationId);
    if (!turn || turn.turnId !== turnId) return;
    clearInterval(turn.refresh);
    this.writing.delete(conversationId);
    const stream = streamKey(conversationId, turnId);
    this.sent(this.redis.command.xadd(stream, `0-${++turn.seq}`, END, ''));
    this.expire(conversationId, turnId, this.options.keepEndedMs);
  }

  follow(conversationId: string, turnId: string, from: number): ReadableStream<Uint8Array> {
    return this.local.follow(conversationId, turnId, from);
  }

  read(
    conversationId: string,
    from = 0,
  ): ReadableStream<Uint8Array> | null | Promise<ReadableStream<Uint8Array> | null> {
    // A turn this instance is writing: its local copy, no round trip.
    if (this.writing.has(conversationId)) return this.local.read(conversationId, from);
    return this.readShared(conversationId, from);
  }

  private async readShared(conversationId: string, from: number): Promise<ReadableStream<Uint8Array> | null> {
    const command = this.redis.command;
    const [turnId, overflow] = await command.hmget(metaKey(conversationId), 'id', 'overflow');
    if (!turnId || overflow === '1') return null;
    const stream = streamKey(conversationId, turnId);
    const { blockMs } = this.options;
    const redis = this.redis;
    let last = `0-${from}`;
    let live = false;
    let blocking: Redis | undefined;
    let cancelled = false;
    const finish = () => {
      if (blocking) redis.release(blocking);
      blocking = undefined;
    };
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        for (;;) {
          let entries: [Buffer, Buffer[]][];
          if (!live) {
            // Replay what is there (ids after `last`), a page at a time, then follow live.
            entries = await command.xrangeBuffer(stream, `(${last}`, '+', 'COUNT', 512);
            if (entries.length === 0) {
              live = true;
              continue;
            }
          } else {
            blocking ??= redis.borrowBlocking();
            let reply: unknown;
            try {
              reply = await blocking.xreadBuffer('COUNT', 512, 'BLOCK', blockMs, 'STREAMS', stream, last);
            } catch (err) {
              if (cancelled) return;
              if (blocking) redis.release(blocking, true);
              blocking = undefined;
              throw err;
            }
            if (cancelled) return;
            const streams = reply as [Buffer, [Buffer, Buffer[]][]][] | null;
            if (!streams) {
              // Nothing for a while: go on while the turn is still there (its owner may have died).
              if ((await command.hget(metaKey(conversationId), 'id')) === turnId) continue;
              finish();
              controller.close();
              return;
            }
            entries = streams[0]?.[1] ?? [];
          }
          let enqueued = false;
          for (const [id, fields] of entries) {
            last = id.toString();
            const kind = fields[0]?.toString();
            if (kind === CHUNK && fields[1]) {
              controller.enqueue(
                new Uint8Array(fields[1].buffer, fields[1].byteOffset, fields[1].byteLength),
              );
              enqueued = true;
            } else if (kind === END || kind === OVERFLOW) {
              finish();
              controller.close();
              return;
            }
          }
          if (enqueued) return;
        }
      },
      cancel() {
        cancelled = true;
        // It may be blocked in XREAD: cut that connection rather than wait out the block.
        if (blocking) redis.release(blocking, true);
        blocking = undefined;
      },
    });
  }

  private expire(conversationId: string, turnId: string, ms: number): void {
    const meta = metaKey(conversationId);
    // Only while the conversation still names this turn: a newer turn's keys are not touched.
    this.sent(
      this.redis.command.eval(
        "if redis.call('HGET', KEYS[1], 'id') == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end " +
          "redis.call('PEXPIRE', KEYS[2], ARGV[2]) return 1",
        2,
        meta,
        streamKey(conversationId, turnId),
        turnId,
        ms,
      ),
    );
  }

  /** Commands are not awaited (the turn goes on whatever Redis does); failures are logged, rate-limited. */
  private sent(reply: Promise<unknown>): void {
    reply.catch((err: Error) => {
      const now = Date.now();
      if (now - this.lastErrorLog < 10_000) return;
      this.lastErrorLog = now;
      console.error(`[redis] turn buffer: ${err.message}`);
    });
  }
}
