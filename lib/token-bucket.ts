import { LRUCache } from 'lru-cache';

type Bucket = { tokens: number; at: number };

/**
 * Token buckets keyed by a string (an IP, a server): up to `burst` at once, refilled at `perSecond`.
 * In memory, for one process; at most `maxKeys` buckets are kept (lru-cache drops the least recently
 * used), so a flood of distinct keys cannot grow memory. No `server-only` import: proxy.ts uses it too.
 */
export class TokenBuckets {
  private readonly buckets: LRUCache<string, Bucket>;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    maxKeys = 10_000,
  ) {
    this.buckets = new LRUCache({ max: maxKeys });
  }

  /** Takes one token; when none is left, how many seconds until one is. */
  take(key: string, now = Date.now()): { ok: true } | { ok: false; retryAfterS: number } {
    // peek, not get: only a granted take counts as a use of the key.
    const bucket = this.buckets.peek(key);
    const tokens = bucket
      ? Math.min(this.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.perSecond)
      : this.burst;
    if (tokens < 1) {
      if (bucket) Object.assign(bucket, { tokens, at: now });
      else this.buckets.set(key, { tokens, at: now });
      return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - tokens) / this.perSecond)) };
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    return { ok: true };
  }
}
