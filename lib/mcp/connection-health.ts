import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { classifyError, isSessionExpired, McpFailure } from '@/lib/mcp/errors';

/**
 * How one McpConnection notices and recovers from a lost connection: why each dropped client was
 * dropped (so requests it still had pending fail with that reason, and a request pending at a lost
 * session is sent once more on a new session), the deferred close of a dropped remote client (once
 * the server has answered its POSTs), and the liveness ping after a transport error that finds a dead
 * remote server. The connection's own state (current client, backoff, status) stays in McpConnection;
 * it is reached through the HealthHost callbacks.
 */

/** How long the ping that checks a remote server after a transport error may take. */
const PROBE_TIMEOUT_MS = 5_000;
/** How long a dropped remote client waits for its requests' HTTP answers before it is closed. */
const DRAIN_MS = 1_000;

/** Why a client was dropped: told to the requests it still had pending when it was closed. */
export type Loss = { failure: McpFailure; sessionExpired: boolean };

/** What ConnectionHealth needs from its McpConnection. */
export type HealthHost = {
  readonly name: string;
  /** Whether `client` is still the connection's current client. */
  isCurrent(client: Client): boolean;
  getClient(): Promise<Client>;
  /** Drops `client` when `err` means the connection is gone (McpConnection.lose). */
  lose(client: Client, err: unknown): void;
};

/**
 * Counts the sends under way on a remote transport (for Streamable HTTP, a POST until its response
 * headers are in), so a dropped client is closed only once the server has answered them: a request
 * whose POST is refused for a lost session rejects with that error and is retried, instead of being
 * rejected by the close as "Connection closed" (which would leave it unclear whether it ran).
 */
function trackSends(transport: Transport): () => Promise<void> {
  const pending = new Set<Promise<void>>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const sent = send(message, options);
    const settled = sent.then(
      () => {},
      () => {},
    );
    pending.add(settled);
    void settled.then(() => pending.delete(settled));
    return sent;
  };
  return async () => {
    while (pending.size > 0) await Promise.all(pending);
  };
}

export class ConnectionHealth {
  /** The client a liveness ping is under way on (see onTransportError). */
  private probing: Client | null = null;
  private readonly losses = new WeakMap<Client, Loss>();
  private readonly sendsSettled = new WeakMap<Client, () => Promise<void>>();

  constructor(private readonly host: HealthHost) {}

  /** Starts tracking a newly connected client's sends (remote transports only; see trackSends). */
  watch(client: Client): void {
    if (
      client.transport instanceof StreamableHTTPClientTransport ||
      client.transport instanceof SSEClientTransport
    )
      this.sendsSettled.set(client, trackSends(client.transport));
  }

  /** Records why `client` is being dropped (`err` means the connection is gone); see McpConnection.lose. */
  recordLoss(client: Client, err: unknown): Loss {
    const sessionExpired = isSessionExpired(err);
    const failure = sessionExpired
      ? new McpFailure(
          'connection',
          'The server no longer knows our session (it restarted or expired it); a new session starts on next use',
          err,
        )
      : classifyError(err);
    const loss = { failure, sessionExpired };
    this.losses.set(client, loss);
    return loss;
  }

  /** Closes a dropped client once its POSTs have been answered (remote transports), but within DRAIN_MS. */
  async closeDropped(client: Client): Promise<void> {
    const settled = this.sendsSettled.get(client);
    if (settled) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([settled(), new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_MS)))]);
      clearTimeout(timer);
    }
    await client.close().catch(() => {});
  }

  /**
   * A transport error outside any one request. Over legacy SSE the session lives and dies with its
   * GET event stream: once that broke (the SDK's EventSource reports it, then reconnects into a new,
   * uninitialised session), no pending response can arrive, so the client is dropped at once.
   *
   * Over Streamable HTTP an error is often harmless (a stream a live server closed, which the SDK
   * resumes with Last-Event-ID; a stray message), but when the server died, the SSE stream of a
   * pending POST breaks and the SDK only reports it here: the request would wait for its timeout.
   * So a fresh request (ping) checks the server: refused, reset, 5xx or a lost session mean the
   * connection is gone and the client is dropped, failing what is pending within moments; an answer
   * (or a slow one: the request timeouts still apply) leaves everything as it was. This costs nothing
   * on the warm path, which has no transport errors, and keeps legitimate resumption working.
   * (Tracking pending requests and failing them on any stream error instead would break resumption:
   * only a fresh request can tell a dead server from a stream the server ended on purpose.)
   */
  onTransportError(client: Client, err: Error): void {
    if (!this.host.isCurrent(client)) return;
    if (client.transport instanceof SSEClientTransport) {
      if (err instanceof SseError)
        this.host.lose(
          client,
          new McpFailure('connection', `The server's event stream broke: ${err.message}`, err),
        );
      return;
    }
    if (!(client.transport instanceof StreamableHTTPClientTransport) || this.probing === client) return;
    this.probing = client;
    // A request's own failed POST is reported here too, just before the request rejects with it:
    // after a turn of the event loop its requester has dealt with it (lose), and no probe is due.
    setImmediate(() => {
      const probe = this.host.isCurrent(client)
        ? client
            .ping({ timeout: PROBE_TIMEOUT_MS })
            .catch((pingErr: unknown) => this.host.lose(client, pingErr))
        : Promise.resolve();
      void probe.finally(() => {
        if (this.probing === client) this.probing = null;
      });
    });
  }

  /**
   * The error for a request that failed on `client`: when the client was dropped while the request
   * was pending (the SDK rejects it with "Connection closed"), why it was dropped.
   */
  explain(client: Client, err: unknown): McpFailure {
    const loss = this.losses.get(client);
    if (loss && err instanceof McpError && err.code === ErrorCode.ConnectionClosed)
      return new McpFailure(
        'connection',
        `Lost the connection to "${this.host.name}" while the request was pending: ${loss.failure.message}`,
        err,
      );
    return classifyError(err);
  }

  /**
   * A request without side effects (lists, reads, completions): on a lost session — whether it was
   * refused for it, or was pending when the loss was found — it is sent once more, on a new session.
   */
  async request<T>(run: (client: Client) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.host.getClient();
      try {
        return await run(client);
      } catch (err) {
        this.host.lose(client, err);
        const pendingAtSessionLoss =
          err instanceof McpError &&
          err.code === ErrorCode.ConnectionClosed &&
          this.losses.get(client)?.sessionExpired === true;
        if (attempt === 0 && (isSessionExpired(err) || pendingAtSessionLoss)) continue;
        throw this.explain(client, err);
      }
    }
  }
}
