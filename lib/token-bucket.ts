/**
 * Token buckets keyed by a string (an IP, a server): up to `burst` at once, refilled at `perSecond`.
 * In memory, for one process; full buckets are swept and the key count is capped, so memory stays bounded.
 * No `server-only` import: proxy.ts uses it too.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Takes one token; when none is left, how many seconds until one is. */
  take(key: string, now = Date.now()): { ok: true } | { ok: false; retryAfterS: number } {
    const tokens = this.level(key, now);
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: now });
      return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - tokens) / this.perSecond)) };
    }
    this.buckets.delete(key); // re-insert: the map stays ordered by last use
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    if (this.buckets.size > this.maxKeys) this.sweep(now);
    return { ok: true };
  }

  private level(key: string, now: number): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return this.burst;
    return Math.min(this.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.perSecond);
  }

  private sweep(now: number): void {
    for (const key of this.buckets.keys()) if (this.level(key, now) >= this.burst) this.buckets.delete(key);
    // Still too many (a flood of distinct keys): forget the least recently used.
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.maxKeys) break;
      this.buckets.delete(key);
    }
  }
}
