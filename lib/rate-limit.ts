import 'server-only';

export type Taken = { ok: true } | { ok: false; retryAfterS: number };

/** A per-key request limit: WindowLimiter in memory, or shared by every instance (lib/shared/redis-limits.ts). */
export interface RequestLimiter {
  take(key: string, now?: number): Taken | Promise<Taken>;
}

/** A per-key concurrency limit: ConcurrencyGate in memory, or shared by every instance. */
export interface Gate {
  acquire(key: string, limit: number): (() => void) | null | Promise<(() => void) | null>;
}

/**
 * In-memory limits for one process (the product runs as one): a sliding-window request counter and
 * a concurrency gate, both keyed by a string (a user id, an IP). Entries expire, so memory stays bounded.
 */
export class WindowLimiter implements RequestLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts a request; when over the limit, how many seconds until one is allowed again. */
  take(key: string, now = Date.now()): { ok: true } | { ok: false; retryAfterS: number } {
    const since = now - this.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return {
        ok: false,
        retryAfterS: Math.max(1, Math.ceil(((recent[0] ?? now) + this.windowMs - now) / 1000)),
      };
    }
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > 10_000) this.sweep(since);
    return { ok: true };
  }

  private sweep(since: number): void {
    for (const [key, times] of this.hits) if (!times.some((t) => t > since)) this.hits.delete(key);
  }
}

export class ConcurrencyGate implements Gate {
  private readonly running = new Map<string, number>();

  /** A release function, or null when the key is at its limit. */
  acquire(key: string, limit: number): (() => void) | null {
    const n = this.running.get(key) ?? 0;
    if (n >= limit) return null;
    this.running.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
    };
  }
}
