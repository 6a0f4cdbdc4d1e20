import 'server-only';
import { Redis, type RedisOptions } from 'ioredis';
import { getEnv } from '@/lib/env';
import { processState } from '@/lib/process-state';

/** Every key and channel this app uses in Redis starts with this, so a Redis can be shared with others. */
export const KEY_PREFIX = 'mcpchat:';

/** A key (or channel) name: the prefix, then the parts joined by `:`. */
export const redisKey = (...parts: string[]): string => KEY_PREFIX + parts.join(':');

/** Idle blocking connections kept for the next reader; more than this are closed when released. */
const IDLE_BLOCKING = 4;

/**
 * The Redis connections of one app instance, each created on first use: one for commands (all of them
 * pipelined on one socket, so commands sent in order run in order), one in subscriber mode, and
 * blocking ones (XREAD BLOCK holds its connection) lent to one reader at a time.
 */
export class RedisConnections {
  private commandClient?: Redis;
  private subscriberClient?: Redis;
  private readonly idle: Redis[] = [];
  private readonly lent = new Set<Redis>();
  private closed = false;
  private lastErrorLog = 0;

  constructor(readonly url: string) {}

  get command(): Redis {
    // Commands issued in the same tick (a burst of chunks) go out in one write.
    this.commandClient ??= this.connect('command', { enableAutoPipelining: true });
    return this.commandClient;
  }

  get subscriber(): Redis {
    this.subscriberClient ??= this.connect('subscriber');
    return this.subscriberClient;
  }

  /** A connection for one blocking reader; give it back with `release`. */
  borrowBlocking(): Redis {
    if (this.closed) throw new Error('Redis connections are closed');
    const conn = this.idle.pop() ?? this.connect('blocking');
    this.lent.add(conn);
    return conn;
  }

  /** Gives a blocking connection back; `broken` (e.g. cut while blocked) closes it instead. */
  release(conn: Redis, broken = false): void {
    if (!this.lent.delete(conn)) return;
    if (broken || this.closed || this.idle.length >= IDLE_BLOCKING) conn.disconnect();
    else this.idle.push(conn);
  }

  /** Shutdown: closes every connection (pending blocking reads end with an error their readers ignore). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [this.commandClient, this.subscriberClient, ...this.idle, ...this.lent].filter(
      (c): c is Redis => c !== undefined,
    );
    this.idle.length = 0;
    this.lent.clear();
    await Promise.all(all.map(closeOne));
  }

  private connect(role: string, options: RedisOptions = {}): Redis {
    const conn = new Redis(this.url, {
      ...options,
      connectionName: `mcpchat-${role}`,
      // A command waits for a reconnect a little, then fails (the caller decides); not forever.
      maxRetriesPerRequest: 3,
    });
    conn.on('error', (err: Error) => {
      // ioredis reconnects by itself; log at most once every 10 s so an outage does not flood the log.
      const now = Date.now();
      if (now - this.lastErrorLog < 10_000) return;
      this.lastErrorLog = now;
      console.error(`[redis] ${role} connection: ${err.message}`);
    });
    return conn;
  }
}

/** QUIT (pending replies arrive first), then wait for the socket to end; cut it after a second. */
/** Closes one connection: QUIT when it is up, else cut; done at its 'end', or after 1.5 s whatever happens. */
async function closeOne(conn: Redis): Promise<void> {
  if (conn.status === 'end') return;
  let bound: NodeJS.Timeout | undefined;
  // A connection waiting to reconnect to a server that is gone may end without an 'end' event.
  const ended = new Promise<void>((resolve) => {
    conn.once('end', () => resolve());
    bound = setTimeout(resolve, 1500);
  });
  const cut = setTimeout(() => conn.disconnect(), 1000);
  if (conn.status === 'ready') await conn.quit().catch(() => conn.disconnect());
  else conn.disconnect();
  if ((conn.status as string) !== 'end') await ended;
  clearTimeout(cut);
  clearTimeout(bound);
}

/** Whether this process uses a shared store (REDIS_URL is set). */
export function hasSharedStore(): boolean {
  return getEnv().REDIS_URL !== undefined;
}

/** This process's Redis connections, or null when REDIS_URL is not set (one process, all in memory). */
export function sharedRedis(): RedisConnections | null {
  const url = getEnv().REDIS_URL;
  if (!url) return null;
  return processState('redis', () => new RedisConnections(url));
}

/** Shutdown: closes this process's Redis connections, if any were made. */
export async function closeSharedRedis(): Promise<void> {
  if (!getEnv().REDIS_URL) return;
  await sharedRedis()?.close();
}
