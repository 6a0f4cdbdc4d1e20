import 'server-only';
import { BACKOFF_DEFAULTS, LoginBackoff, type SignInBackoff } from '@/lib/login-backoff';
import { ConcurrencyGate, type Gate, type RequestLimiter, WindowLimiter } from '@/lib/rate-limit';
import { sharedRedis } from '@/lib/shared/redis';
import {
  RedisConcurrencyGate,
  RedisLoginBackoff,
  RedisTokenBuckets,
  RedisWindowLimiter,
} from '@/lib/shared/redis-limits';
import { TokenBuckets } from '@/lib/token-bucket';

/**
 * The limits the app applies, each in memory (one process) or, with REDIS_URL, in Redis so all
 * instances share them. `name` keeps each limit's keys apart in Redis. Callers await the answers.
 */
export function requestLimiter(name: string, limit: number, windowMs: number): RequestLimiter {
  const redis = sharedRedis();
  return redis ? new RedisWindowLimiter(redis, name, limit, windowMs) : new WindowLimiter(limit, windowMs);
}

export function concurrencyGate(name: string): Gate {
  const redis = sharedRedis();
  return redis ? new RedisConcurrencyGate(redis, name) : new ConcurrencyGate();
}

export function tokenBuckets(name: string, burst: number, perSecond: number): RequestLimiter {
  const redis = sharedRedis();
  return redis ? new RedisTokenBuckets(redis, name, burst, perSecond) : new TokenBuckets(burst, perSecond);
}

export function signInBackoff(): SignInBackoff {
  const redis = sharedRedis();
  return redis ? new RedisLoginBackoff(redis, BACKOFF_DEFAULTS) : new LoginBackoff();
}

/** What better-auth asks of a rate-limit store (its `rateLimit.customStorage`). */
export type AuthRateLimitStorage = {
  consume: (
    key: string,
    rule: { window: number; max: number },
  ) => Promise<{ allowed: boolean; retryAfter: number | null }>;
};

/**
 * better-auth's own rate limits (per client address and auth route) in Redis, so every worker and
 * instance counts against one allowance; undefined without REDIS_URL (better-auth keeps them in memory).
 */
export function authRateLimitStorage(): AuthRateLimitStorage | undefined {
  const redis = sharedRedis();
  if (!redis) return undefined;
  return {
    async consume(key, rule) {
      const taken = await new RedisWindowLimiter(redis, 'auth', rule.max, rule.window * 1000).take(key);
      return taken.ok
        ? { allowed: true, retryAfter: null }
        : { allowed: false, retryAfter: taken.retryAfterS };
    },
  };
}
