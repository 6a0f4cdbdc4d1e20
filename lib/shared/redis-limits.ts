import 'server-only';
import { randomUUID } from 'node:crypto';
import type { BackoffOptions, SignInBackoff } from '@/lib/login-backoff';
import type { Gate, RequestLimiter, Taken } from '@/lib/rate-limit';
import { type RedisConnections, redisKey } from '@/lib/shared/redis';

/**
 * The limits of lib/rate-limit.ts, lib/token-bucket.ts and lib/login-backoff.ts kept in Redis, so every
 * instance counts against the same allowance. Each decision is one Lua script (atomic in Redis) with
 * the same arithmetic as the memory version; every key expires once it no longer matters.
 */

/** Sliding window: a sorted set of request times; refuses at `limit`, answers when the oldest leaves. */
const WINDOW_TAKE = `
local since = tonumber(ARGV[1]) - tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', since)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, oldest[2]}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, '0'}`;

export class RedisWindowLimiter implements RequestLimiter {
  constructor(
    private readonly redis: RedisConnections,
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  async take(key: string, now = Date.now()): Promise<Taken> {
    const [ok, oldest] = (await this.redis.command.eval(
      WINDOW_TAKE,
      1,
      redisKey('limit', this.name, key),
      now,
      this.windowMs,
      this.limit,
      `${now}:${randomUUID()}`,
    )) as [number, string];
    if (ok === 1) return { ok: true };
    return {
      ok: false,
      retryAfterS: Math.max(1, Math.ceil((Number(oldest) + this.windowMs - now) / 1000)),
    };
  }
}

/** Concurrency: a sorted set of held slots scored by their expiry; the holder renews its slot while it runs. */
const GATE_ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[3]), ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;
const GATE_RENEW = `
if redis.call('ZADD', KEYS[1], 'XX', 'CH', tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[3]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`;

export type RedisGateOptions = {
  /** A slot not renewed for this long is free again (its instance died). */
  slotTtlMs: number;
  renewMs: number;
};

export class RedisConcurrencyGate implements Gate {
  private readonly options: RedisGateOptions;

  constructor(
    private readonly redis: RedisConnections,
    private readonly name: string,
    options: Partial<RedisGateOptions> = {},
  ) {
    this.options = { slotTtlMs: 30_000, renewMs: 10_000, ...options };
  }

  async acquire(key: string, limit: number): Promise<(() => void) | null> {
    const redisKeyName = redisKey('gate', this.name, key);
    const slot = randomUUID();
    const { slotTtlMs, renewMs } = this.options;
    const ok = await this.redis.command.eval(
      GATE_ACQUIRE,
      1,
      redisKeyName,
      Date.now(),
      limit,
      slotTtlMs,
      slot,
    );
    if (ok !== 1) return null;
    const renew = setInterval(() => {
      this.redis.command
        .eval(GATE_RENEW, 1, redisKeyName, Date.now(), slotTtlMs, slot)
        .catch((err: Error) => console.error(`[redis] renewing a slot: ${err.message}`));
    }, renewMs);
    renew.unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(renew);
      this.redis.command
        .zrem(redisKeyName, slot)
        .catch((err: Error) => console.error(`[redis] releasing a slot: ${err.message}`));
    };
  }
}

/** Token bucket: `tokens` and `at` in a hash, refilled by elapsed time as in lib/token-bucket.ts. */
const BUCKET_TAKE = `
local burst = tonumber(ARGV[2])
local rate = tonumber(ARGV[3])
local now = tonumber(ARGV[1])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if b[1] then tokens = math.min(burst, tonumber(b[1]) + math.max(0, now - tonumber(b[2])) / 1000 * rate) end
local ok = 0
if tokens >= 1 then
  ok = 1
  tokens = tokens - 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return {ok, tostring(tokens)}`;

export class RedisTokenBuckets implements RequestLimiter {
  constructor(
    private readonly redis: RedisConnections,
    private readonly name: string,
    private readonly burst: number,
    private readonly perSecond: number,
  ) {}

  async take(key: string, now = Date.now()): Promise<Taken> {
    const [ok, tokens] = (await this.redis.command.eval(
      BUCKET_TAKE,
      1,
      redisKey('bucket', this.name, key),
      now,
      this.burst,
      this.perSecond,
    )) as [number, string];
    if (ok === 1) return { ok: true };
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - Number(tokens)) / this.perSecond)) };
  }
}

/** How long an account's own addresses are remembered (the memory version keeps them while the account is recent). */
const KNOWN_ADDRESSES_MS = 30 * 24 * 3600_000;

const BACKOFF_FAILURE = `
local now = tonumber(ARGV[1])
local b = redis.call('HMGET', KEYS[1], 'failures', 'last')
local failures = tonumber(b[1]) or 0
if failures > 0 and now - tonumber(b[2]) > tonumber(ARGV[2]) then failures = 0 end
redis.call('HSET', KEYS[1], 'failures', failures + 1, 'last', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return failures + 1`;

const BACKOFF_SUCCESS = `
redis.call('DEL', KEYS[1])
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(tonumber(ARGV[3]) + 1))
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1`;

/** Per-account sign-in back-off (lib/login-backoff.ts) with its counts and the owner's addresses in Redis. */
export class RedisLoginBackoff implements SignInBackoff {
  private readonly options: BackoffOptions;

  constructor(
    private readonly redis: RedisConnections,
    options: BackoffOptions,
  ) {
    this.options = options;
  }

  async check(account: string, address: string, now = Date.now()): Promise<Taken> {
    const [[, entry], [, known]] = (await this.redis.command
      .multi()
      .hmget(this.key(account), 'failures', 'last')
      .zscore(this.knownKey(account), address)
      .exec()) as [[unknown, [string | null, string | null]], [unknown, string | null]];
    if (known !== null) return { ok: true };
    const [failuresText, lastText] = entry;
    let failures = Number(failuresText ?? 0);
    const last = Number(lastText ?? 0);
    if (failures > 0 && now - last > this.options.forgetMs) failures = 0;
    const over = failures - this.options.freeFailures;
    if (over < 0) return { ok: true };
    const wait = Math.min(1000 * 2 ** over, this.options.maxWaitMs);
    const left = last + wait - now;
    return left > 0 ? { ok: false, retryAfterS: Math.ceil(left / 1000) } : { ok: true };
  }

  async failure(account: string, now = Date.now()): Promise<void> {
    await this.redis.command.eval(BACKOFF_FAILURE, 1, this.key(account), now, this.options.forgetMs);
  }

  async success(account: string, address: string, now = Date.now()): Promise<void> {
    await this.redis.command.eval(
      BACKOFF_SUCCESS,
      2,
      this.key(account),
      this.knownKey(account),
      now,
      address,
      this.options.maxKnownAddresses,
      KNOWN_ADDRESSES_MS,
    );
  }

  private key(account: string): string {
    return redisKey('signin', account);
  }

  private knownKey(account: string): string {
    return redisKey('signin', account, 'known');
  }
}
