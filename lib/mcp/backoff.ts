/**
 * The circuit breaker of one server, shared by every caller: after failures it opens for a capped,
 * exponentially growing time during which callers fail fast; when that ends, the next caller's
 * attempt (shared by all callers, see McpConnection.getClient) probes the server. Failures count
 * until the server answers a request again; a connection that worked and is then lost once (a
 * crash, a restart) may reconnect at once, but repeated losses (a crash loop, a flapping remote) back off.
 */
export class Backoff {
  private failures = 0;
  private until = 0;

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  /** When the next attempt may go out (epoch ms); in the past when the breaker is closed. */
  get retryAt(): number {
    return this.until;
  }

  /** Milliseconds until the next attempt may go out; 0 when it may go now. */
  remaining(): number {
    return Math.max(0, this.until - Date.now());
  }

  private delay(n: number): number {
    return Math.min(this.baseMs * 2 ** (n - 1), this.maxMs);
  }

  /** A connect attempt failed. */
  failed(): void {
    this.failures++;
    this.until = Date.now() + this.delay(this.failures);
  }

  /** An established connection was lost (crash, exit, network, HTTP 5xx). */
  lost(): void {
    this.failures++;
    this.until = this.failures > 1 ? Date.now() + this.delay(this.failures - 1) : 0;
  }

  connected(): void {
    this.until = 0;
  }

  /** The server answered a request: it is healthy, the count starts over. */
  succeeded(): void {
    this.failures = 0;
  }
}
