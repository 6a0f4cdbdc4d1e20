import type { LineBuffer } from '@/lib/mcp/line-buffer';
import { TokenBuckets } from '@/lib/token-bucket';

type LogParams = { level: string; data?: unknown };

/**
 * Where a server's log notifications (notifications/message) go. Their text may hold the server's
 * secrets and a server may send thousands a second, so none of it is ever kept or printed: each one
 * becomes a line in the server's stderr tail (admin-only) naming its level and size, `burst` at once
 * and `perSecond` after that; the rest are only counted, and reported as one "suppressed" line.
 */
export class ServerLogSink {
  private readonly bucket: TokenBuckets;
  private suppressed = 0;

  constructor(
    private readonly out: LineBuffer,
    burst = 20,
    perSecond = 2,
  ) {
    this.bucket = new TokenBuckets(burst, perSecond, 1);
  }

  record(params: LogParams, now = Date.now()): void {
    if (!this.bucket.take('log', now).ok) {
      this.suppressed++;
      return;
    }
    if (this.suppressed > 0) {
      this.out.push(`[host] ${this.suppressed} more log notifications suppressed (rate limit)`);
      this.suppressed = 0;
    }
    const size =
      typeof params.data === 'string'
        ? params.data.length
        : (JSON.stringify(params.data ?? null)?.length ?? 0);
    this.out.push(
      `[host] the server logged a "${params.level}" message (${size} characters, content not kept)`,
    );
  }
}
