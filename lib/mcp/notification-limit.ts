import 'server-only';
import { scrubSecrets, secretsOf } from '@/lib/mcp/public-failure';
import type { McpServerConfig } from '@/lib/schemas/mcp';
import { TokenBuckets } from '@/lib/token-bucket';

type LogParams = { level: string; logger?: string; data?: unknown };

/** One log message of a server as the admin's server page lists it (the host's own notes have logger "host"). */
export type ServerLogEntry = { at: string; level: string; logger: string | null; text: string };

/** How much of one message's data is kept. */
export const MAX_LOG_TEXT = 2000;
const MAX_LOGGER = 100;

function stringify(data: unknown): string {
  if (typeof data === 'string') return data;
  try {
    return JSON.stringify(data ?? null) ?? String(data);
  } catch {
    return String(data);
  }
}

/**
 * Where a server's log notifications (notifications/message) go: the last `max` of them, for the
 * admin's server page only (never printed to the process's output). Their data may hold the server's
 * secrets, so it is kept as text, cut to MAX_LOG_TEXT, with the server's configured secrets (env and
 * header values, URL credentials) masked like a failure's detail. A server may send thousands a second:
 * `burst` are kept at once and `perSecond` after that; the rest are only counted, and reported as one
 * "suppressed" note.
 */
export class ServerLogSink {
  private readonly bucket: TokenBuckets;
  private suppressed = 0;
  private entries: ServerLogEntry[] = [];

  constructor(
    private secrets: readonly string[] = [],
    burst = 20,
    perSecond = 2,
    private readonly max = 200,
  ) {
    this.bucket = new TokenBuckets(burst, perSecond, 1);
  }

  /** A sink masking this server's configured secrets. */
  static forConfig(config: McpServerConfig): ServerLogSink {
    return new ServerLogSink(secretsOf(config));
  }

  /** Masks these too from now on (the values a per-user connection started with). */
  maskAlso(secrets: readonly string[]): void {
    this.secrets = [...new Set([...this.secrets, ...secrets])];
  }

  record(params: LogParams, now = Date.now()): void {
    if (!this.bucket.take('log', now).ok) {
      this.suppressed++;
      return;
    }
    if (this.suppressed > 0) {
      this.note(`${this.suppressed} more log messages suppressed (rate limit)`, now, 'warning');
      this.suppressed = 0;
    }
    // Masked before it is cut, so that no secret survives in part at the cut.
    const text = scrubSecrets(stringify(params.data), this.secrets);
    const logger = typeof params.logger === 'string' ? params.logger.slice(0, MAX_LOGGER) : null;
    this.push({
      at: new Date(now).toISOString(),
      level: String(params.level).slice(0, 20),
      logger: logger && scrubSecrets(logger, this.secrets),
      text: text.length > MAX_LOG_TEXT ? `${text.slice(0, MAX_LOG_TEXT)}… [truncated]` : text,
    });
  }

  /** A note of the host's own about this server (setLevel refused, messages suppressed, a tool left out); masked too. */
  note(text: string, now = Date.now(), level = 'notice'): void {
    this.push({
      at: new Date(now).toISOString(),
      level,
      logger: 'host',
      text: scrubSecrets(text, this.secrets),
    });
  }

  list(): ServerLogEntry[] {
    return [...this.entries];
  }

  private push(entry: ServerLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.max) this.entries.shift();
  }
}
