import { LRUCache } from 'lru-cache';

/**
 * Per-account sign-in back-off, across all addresses: after `freeFailures` wrong passwords in a row,
 * each further attempt must wait 1 s, 2 s, 4 s … up to `maxWaitMs` after the last failure. The wait
 * is capped and forgotten after `forgetMs` without failures, so an attacker can slow guessing to about
 * one try a minute per account but never lock its owner out; and an address that signed in to the
 * account before is exempt, so the owner's own devices are never slowed by someone else's guessing.
 */
type Entry = { failures: number; lastFailureAt: number; known: Set<string> };

export type BackoffOptions = {
  freeFailures: number;
  maxWaitMs: number;
  forgetMs: number;
  maxAccounts: number;
  maxKnownAddresses: number;
};

/** The back-off's operations: LoginBackoff in memory, or shared by every instance (lib/shared/redis-limits.ts). */
export interface SignInBackoff {
  check(
    account: string,
    address: string,
    now?: number,
  ):
    | { ok: true }
    | { ok: false; retryAfterS: number }
    | Promise<{ ok: true } | { ok: false; retryAfterS: number }>;
  failure(account: string, now?: number): void | Promise<void>;
  success(account: string, address: string, now?: number): void | Promise<void>;
}

export const BACKOFF_DEFAULTS: BackoffOptions = {
  freeFailures: 5,
  maxWaitMs: 60_000,
  forgetMs: 15 * 60_000,
  maxAccounts: 10_000,
  maxKnownAddresses: 10,
};

export class LoginBackoff implements SignInBackoff {
  /** Accounts by last failure or success; past `maxAccounts`, lru-cache drops the least recent. */
  private readonly entries: LRUCache<string, Entry>;
  private readonly options: BackoffOptions;

  constructor(options: Partial<BackoffOptions> = {}) {
    this.options = { ...BACKOFF_DEFAULTS, ...options };
    this.entries = new LRUCache({ max: this.options.maxAccounts });
  }

  /** Whether an attempt on `account` from `address` may go ahead now. */
  check(
    account: string,
    address: string,
    now = Date.now(),
  ): { ok: true } | { ok: false; retryAfterS: number } {
    const entry = this.entry(account, now);
    if (!entry || entry.known.has(address)) return { ok: true };
    const over = entry.failures - this.options.freeFailures;
    if (over < 0) return { ok: true };
    const wait = Math.min(1000 * 2 ** over, this.options.maxWaitMs);
    const left = entry.lastFailureAt + wait - now;
    return left > 0 ? { ok: false, retryAfterS: Math.ceil(left / 1000) } : { ok: true };
  }

  failure(account: string, now = Date.now()): void {
    const entry = this.entry(account, now) ?? { failures: 0, lastFailureAt: now, known: new Set<string>() };
    entry.failures++;
    entry.lastFailureAt = now;
    this.entries.set(account, entry);
  }

  /** A correct password: the count starts over, and the address is remembered as the owner's. */
  success(account: string, address: string, now = Date.now()): void {
    const entry = this.entry(account, now) ?? { failures: 0, lastFailureAt: now, known: new Set<string>() };
    entry.failures = 0;
    entry.known.delete(address);
    entry.known.add(address);
    if (entry.known.size > this.options.maxKnownAddresses)
      entry.known.delete(entry.known.values().next().value as string);
    this.entries.set(account, entry);
  }

  private entry(account: string, now: number): Entry | undefined {
    const entry = this.entries.peek(account); // a check is not a use: only outcomes keep an account
    if (entry && entry.failures > 0 && now - entry.lastFailureAt > this.options.forgetMs) entry.failures = 0;
    return entry;
  }
}
