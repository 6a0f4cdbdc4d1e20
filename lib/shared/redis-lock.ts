import 'server-only';
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RedisConnections, redisKey } from '@/lib/shared/redis';

/** Runs `fn` while holding the lock named `key` in every instance that shares the Redis. */
export type SharedLock = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

export type RedisLockOptions = {
  /** A holder that dies (or runs longer than this) frees the lock after this long. */
  ttlMs: number;
  /** How long a caller waits for the lock before it runs without it. */
  waitMs: number;
  /** How often a waiting caller tries again. */
  pollMs: number;
};

const DEFAULTS: RedisLockOptions = { ttlMs: 30_000, waitMs: 35_000, pollMs: 50 };

/** Deletes the lock only while it is still ours (it may have expired and been taken since). */
const RELEASE =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * A lock across instances: `mcpchat:lock:<name>:<sha256 of key>` = a token of the holder, set with NX and
 * a time to live. Callers that find it taken try again every `pollMs`. The lock keeps work from running
 * twice at once; it is not a guarantee for work longer than `ttlMs`. When Redis cannot be reached, or
 * the wait runs out, `fn` runs without it (callers must still cope with a concurrent run, as they
 * would without the lock) rather than failing what it protects.
 */
export function redisLock(
  redis: RedisConnections,
  name: string,
  options: Partial<RedisLockOptions> = {},
): SharedLock {
  const { ttlMs, waitMs, pollMs } = { ...DEFAULTS, ...options };
  return async (key, fn) => {
    const lockKey = redisKey('lock', name, createHash('sha256').update(key).digest('hex'));
    const token = randomUUID();
    const held = await acquire(redis, lockKey, token, ttlMs, Date.now() + waitMs, pollMs);
    try {
      return await fn();
    } finally {
      if (held) await redis.command.eval(RELEASE, 1, lockKey, token).catch(() => {});
    }
  };
}

/** Whether the lock was taken before `deadline`; false when Redis failed or the wait ran out. */
async function acquire(
  redis: RedisConnections,
  lockKey: string,
  token: string,
  ttlMs: number,
  deadline: number,
  pollMs: number,
): Promise<boolean> {
  for (;;) {
    try {
      if ((await redis.command.set(lockKey, token, 'PX', ttlMs, 'NX')) === 'OK') return true;
    } catch (err) {
      console.error(
        `[redis] lock ${lockKey}: ${err instanceof Error ? err.message : err}; going on without it`,
      );
      return false;
    }
    if (Date.now() + pollMs > deadline) return false;
    await sleep(pollMs);
  }
}
