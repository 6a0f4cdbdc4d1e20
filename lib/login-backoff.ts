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

const DEFAULTS: BackoffOptions = {
  freeFailures: 5,
  maxWaitMs: 60_000,
  forgetMs: 15 * 60_000,
  maxAccounts: 10_000,
  maxKnownAddresses: 10,
};

export class LoginBackoff {
  private readonly entries = new Map<string, Entry>();
  private readonly options: BackoffOptions;

  constructor(options: Partial<BackoffOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
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
    this.set(account, entry);
  }

  /** A correct password: the count starts over, and the address is remembered as the owner's. */
  success(account: string, address: string, now = Date.now()): void {
    const entry = this.entry(account, now) ?? { failures: 0, lastFailureAt: now, known: new Set<string>() };
    entry.failures = 0;
    entry.known.delete(address);
    entry.known.add(address);
    if (entry.known.size > this.options.maxKnownAddresses)
      entry.known.delete(entry.known.values().next().value as string);
    this.set(account, entry);
  }

  private entry(account: string, now: number): Entry | undefined {
    const entry = this.entries.get(account);
    if (entry && entry.failures > 0 && now - entry.lastFailureAt > this.options.forgetMs) entry.failures = 0;
    return entry;
  }

  private set(account: string, entry: Entry): void {
    this.entries.delete(account);
    this.entries.set(account, entry);
    if (this.entries.size > this.options.maxAccounts)
      this.entries.delete(this.entries.keys().next().value as string);
  }
}
