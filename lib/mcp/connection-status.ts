import type { Backoff } from '@/lib/mcp/backoff';
import { McpFailure } from '@/lib/mcp/errors';
import type { LineBuffer } from '@/lib/mcp/line-buffer';
import type { ServerStatus, ServerStatusInfo } from '@/lib/schemas/mcp';

/**
 * What an McpConnection shows of itself (the admin's server list, the user's connection list): its
 * status, the last error (with the server's last stderr line) and since when it is connected.
 */
export class StatusTracker {
  state: ServerStatus;
  lastError: { kind: McpFailure['kind']; message: string; at: Date } | null = null;
  connectedSince: Date | null = null;

  constructor(enabled: boolean) {
    this.state = enabled ? 'idle' : 'disabled';
  }

  connected(): void {
    this.state = 'connected';
    this.connectedSince = new Date();
    this.lastError = null;
  }

  /** Not connected any more, for a reason that is no error: idle, or closed for good. */
  ended(state: 'idle' | 'disabled'): void {
    this.connectedSince = null;
    this.state = state;
  }

  failed(failure: McpFailure, stderr: LineBuffer): void {
    this.state = 'error';
    const lastLine = stderr.tail().at(-1);
    const detail =
      lastLine && failure.kind === 'connection' && !failure.message.includes(lastLine)
        ? ` — stderr: ${lastLine}`
        : '';
    this.lastError = {
      kind: failure.kind,
      message: `${failure.message}${detail}`.slice(0, 1000),
      at: new Date(),
    };
  }

  /** Why a caller fails fast while the backoff runs (`waitMs` left). */
  unavailable(name: string, waitMs: number): McpFailure {
    const why = this.lastError?.message ?? 'it failed';
    return new McpFailure(
      this.lastError?.kind ?? 'connection',
      `Server "${name}" is unavailable (${why}); next retry in ${Math.ceil(waitMs / 1000)} s.`,
    );
  }

  info(name: string, toolCount: number, backoff: Backoff): ServerStatusInfo {
    return {
      name,
      status: this.state,
      lastError: this.lastError && { ...this.lastError, at: this.lastError.at.toISOString() },
      connectedSince: this.connectedSince?.toISOString() ?? null,
      toolCount,
      retryAt: backoff.remaining() > 0 ? new Date(backoff.retryAt).toISOString() : null,
    };
  }
}
