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
