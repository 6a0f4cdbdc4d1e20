import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type Progress,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { Backoff } from '@/lib/mcp/backoff';
import { callWithCaps } from '@/lib/mcp/call-tool';
import { connectClient, type ConnectOptions } from '@/lib/mcp/connect';
import {
  completePromptArgument,
  listPrompts,
  listResources,
  type PromptInfo,
  type ResourceInfo,
} from '@/lib/mcp/context-requests';
import { classifyError, isConnectionLost, isSessionExpired, McpFailure } from '@/lib/mcp/errors';
import { LineBuffer } from '@/lib/mcp/line-buffer';
import { FailureLog } from '@/lib/mcp/public-failure';
import { untilAborted } from '@/lib/mcp/until-aborted';
import type { McpServerConfig, ServerStatus, ServerStatusInfo } from '@/lib/schemas/mcp';

export type ConnectionOptions = {
  /** Close a connection unused for this long (never while calls are in flight). */
  idleMs: number;
  /** Re-list tools in the background when the cached list is older than this. */
  toolsTtlMs: number;
  connectTimeoutMs: number;
  /** First retry delay after a failed connect; doubles per failure up to maxBackoffMs. */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** Cap on one call's total time even while progress keeps resetting its timeout. */
  maxTotalCallMs: number;
  onElicit?: ConnectOptions['onElicit'];
  /** OAuth for an http/sse server, one provider per (user, server) (lib/mcp/oauth). */
  authProvider?: ConnectOptions['authProvider'];
  /** Told every time a fresh tool list arrives (first connect, reconnect, list_changed, TTL). */
  onTools?: (server: string, tools: Tool[]) => void;
};

export const DEFAULT_CONNECTION_OPTIONS: ConnectionOptions = {
  idleMs: 10 * 60_000,
  toolsTtlMs: 5 * 60_000,
  connectTimeoutMs: 30_000,
  baseBackoffMs: 1_000,
  maxBackoffMs: 60_000,
  maxTotalCallMs: 10 * 60_000,
};

export type CallOptions = { signal?: AbortSignal; onProgress?: (p: Progress) => void };

/** How long the ping that checks a remote server after a transport error may take. */
const PROBE_TIMEOUT_MS = 5_000;
/** How long a dropped remote client waits for its requests' HTTP answers before it is closed. */
const DRAIN_MS = 1_000;

/** Why a client was dropped: told to the requests it still had pending when it was closed. */
type Loss = { failure: McpFailure; sessionExpired: boolean };

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

/**
 * One long-lived connection to one MCP server, shared by every request and user: lazy connect
 * (concurrent callers share one attempt), cached tool list refreshed on list_changed and after a
 * reconnect, a circuit breaker with capped exponential backoff (Backoff), idle close when no call runs.
 */
export class McpConnection {
  readonly stderr = new LineBuffer();
  /** Failures users were told about (by reference only), with their detail for the admin's logs page. */
  readonly failures = new FailureLog();
  /** tools/list requests sent (tests and benchmarks read it). */
  listRequests = 0;
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private state: ServerStatus;
  private lastError: { kind: McpFailure['kind']; message: string; at: Date } | null = null;
  private connectedSince: Date | null = null;
  private readonly backoff: Backoff;
  private inflight = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private tools: { list: Tool[]; fetchedAt: number } | null = null;
  private listing: Promise<Tool[]> | null = null;
  private changedWhileListing = false;
  private closed = false;
  /** The client a liveness ping is under way on (see onTransportError). */
  private probing: Client | null = null;
  private readonly losses = new WeakMap<Client, Loss>();
  private readonly sendsSettled = new WeakMap<Client, () => Promise<void>>();

  constructor(
    readonly config: McpServerConfig,
    private readonly opts: ConnectionOptions = DEFAULT_CONNECTION_OPTIONS,
  ) {
    this.state = config.enabled ? 'idle' : 'disabled';
    this.backoff = new Backoff(opts.baseBackoffMs, opts.maxBackoffMs);
  }

  get name(): string {
    return this.config.name;
  }

  /** Connected or connecting: it holds (or is starting) a child process or a session. */
  get live(): boolean {
    return this.client !== null || this.connecting !== null;
  }

  status(): ServerStatusInfo {
    return {
      name: this.name,
      status: this.state,
      lastError: this.lastError && { ...this.lastError, at: this.lastError.at.toISOString() },
      connectedSince: this.connectedSince?.toISOString() ?? null,
      toolCount: this.tools?.list.length ?? 0,
      retryAt: this.backoff.remaining() > 0 ? new Date(this.backoff.retryAt).toISOString() : null,
    };
  }

  /** The connected client; connects if needed. Fails fast while the backoff after a failed connect runs. */
  getClient(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    if (this.connecting) return this.connecting;
    if (this.closed || !this.config.enabled)
      return Promise.reject(new McpFailure('connection', `Server "${this.name}" is disabled.`));
    const wait = this.backoff.remaining();
    if (wait > 0) {
      const why = this.lastError?.message ?? 'it failed';
      return Promise.reject(
        new McpFailure(
          this.lastError?.kind ?? 'connection',
          `Server "${this.name}" is unavailable (${why}); next retry in ${Math.ceil(wait / 1000)} s.`,
        ),
      );
    }
    this.connecting = this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    this.state = 'connecting';
    let client: Client;
    try {
      client = await connectClient(this.config, {
        stderr: this.stderr,
        timeoutMs: this.opts.connectTimeoutMs,
        onToolListChanged: () => this.onToolListChanged(),
        onElicit: this.opts.onElicit,
        authProvider: this.opts.authProvider,
      });
    } catch (err) {
      const failure = classifyError(err);
      this.backoff.failed();
      this.markError(failure);
      throw failure;
    }
    if (this.closed) {
      await client.close().catch(() => {});
      throw new McpFailure('connection', `Server "${this.name}" was closed.`);
    }
    client.onclose = () =>
      this.lose(client, new McpFailure('connection', 'The server closed the connection'));
    client.onerror = (err) => this.onTransportError(client, err);
    if (
      client.transport instanceof StreamableHTTPClientTransport ||
      client.transport instanceof SSEClientTransport
    )
      this.sendsSettled.set(client, trackSends(client.transport));
    this.client = client;
    this.state = 'connected';
    this.connectedSince = new Date();
    this.backoff.connected();
    this.lastError = null;
    if (this.tools) this.tools.fetchedAt = 0; // re-list after a reconnect; keep the last good list meanwhile
    this.armIdleTimer();
    return client;
  }

  private markError(failure: McpFailure): void {
    this.state = 'error';
    const lastLine = this.stderr.tail().at(-1);
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

  /**
   * The connection failed (the server exited; a network error, HTTP 5xx, or the server forgot our
   * session): drop it, so the next use reconnects — or fails fast while backing off (see Backoff).
   * Closing the client rejects every request still pending on it (the SDK's onclose), with the
   * reason kept in `losses` for explain().
   */
  private lose(client: Client, err: unknown): void {
    if (!(err instanceof McpFailure || isConnectionLost(err)) || this.client !== client) return;
    const sessionExpired = isSessionExpired(err);
    const failure = sessionExpired
      ? new McpFailure(
          'connection',
          'The server no longer knows our session (it restarted or expired it); a new session starts on next use',
          err,
        )
      : classifyError(err);
    this.losses.set(client, { failure, sessionExpired });
    this.client = null;
    this.connectedSince = null;
    this.clearIdleTimer();
    if (this.tools) this.tools.fetchedAt = 0;
    void this.closeDropped(client);
    if (this.closed) return;
    // The server is up but forgot us: a new session is due at once.
    if (!sessionExpired) this.backoff.lost();
    this.markError(failure);
  }

  /** Closes a dropped client once its POSTs have been answered (remote transports), but within DRAIN_MS. */
  private async closeDropped(client: Client): Promise<void> {
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
  private onTransportError(client: Client, err: Error): void {
    if (this.client !== client) return;
    if (client.transport instanceof SSEClientTransport) {
      if (err instanceof SseError)
        this.lose(
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
      const probe =
        this.client === client
          ? client.ping({ timeout: PROBE_TIMEOUT_MS }).catch((pingErr: unknown) => this.lose(client, pingErr))
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
  private explain(client: Client, err: unknown): McpFailure {
    const loss = this.losses.get(client);
    if (loss && err instanceof McpError && err.code === ErrorCode.ConnectionClosed)
      return new McpFailure(
        'connection',
        `Lost the connection to "${this.name}" while the request was pending: ${loss.failure.message}`,
        err,
      );
    return classifyError(err);
  }

  /**
   * A request without side effects (lists, reads, completions): on a lost session — whether it was
   * refused for it, or was pending when the loss was found — it is sent once more, on a new session.
   */
  private async request<T>(run: (client: Client) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.getClient();
      try {
        return await run(client);
      } catch (err) {
        this.lose(client, err);
        const pendingAtSessionLoss =
          err instanceof McpError &&
          err.code === ErrorCode.ConnectionClosed &&
          this.losses.get(client)?.sessionExpired === true;
        if (attempt === 0 && (isSessionExpired(err) || pendingAtSessionLoss)) continue;
        throw this.explain(client, err);
      }
    }
  }

  private onToolListChanged(): void {
    if (this.listing) this.changedWhileListing = true;
    if (this.tools) this.tools.fetchedAt = 0;
    void this.listTools().catch(() => {});
  }

  /** The server's tools, from cache when fresh; a stale cache is served while it refreshes in the background. */
  async listTools(): Promise<Tool[]> {
    const cached = this.tools;
    if (cached && cached.fetchedAt > 0) {
      if (Date.now() - cached.fetchedAt > this.opts.toolsTtlMs) void this.refreshTools().catch(() => {});
      return cached.list;
    }
    try {
      return await this.refreshTools();
    } catch (err) {
      if (cached) return cached.list; // keep the last good catalog; the next use retries
      throw err;
    }
  }

  private refreshTools(): Promise<Tool[]> {
    this.listing ??= this.fetchAllTools().finally(() => {
      this.listing = null;
    });
    return this.listing;
  }

  private async fetchAllTools(): Promise<Tool[]> {
    for (let attempt = 0; ; attempt++) {
      this.changedWhileListing = false;
      // After a lost session the listing starts over: a cursor belongs to its session.
      const list = await this.request(async (client) => {
        const tools: Tool[] = [];
        let cursor: string | undefined;
        do {
          this.listRequests++;
          const page = await client.listTools(cursor ? { cursor } : undefined, {
            timeout: this.opts.connectTimeoutMs,
          });
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor && tools.length < 10_000);
        return tools;
      });
      this.backoff.succeeded();
      // A list_changed that arrived mid-listing may not be reflected: list again (bounded).
      if (this.changedWhileListing && attempt < 3) continue;
      this.tools = { list, fetchedAt: Date.now() };
      try {
        this.opts.onTools?.(this.name, list);
      } catch (err) {
        console.error(`[mcp] tool observer failed for "${this.name}"`, err);
      }
      return list;
    }
  }

  /** Resources and templates, when the server has them (admin detail pages; not cached). */
  async listResources(): Promise<ResourceInfo[]> {
    return this.request((client) => listResources(client, this.opts.connectTimeoutMs));
  }

  async listPrompts(): Promise<PromptInfo[]> {
    return this.request((client) => listPrompts(client, this.opts.connectTimeoutMs));
  }

  async getPrompt(name: string, args: Record<string, string>) {
    return this.request((client) =>
      client.getPrompt({ name, arguments: args }, { timeout: this.opts.connectTimeoutMs }),
    );
  }

  async completePromptArgument(prompt: string, argument: string, value: string): Promise<string[]> {
    return this.request((client) =>
      completePromptArgument(client, this.opts.connectTimeoutMs, prompt, argument, value),
    );
  }

  async readResource(uri: string) {
    return this.request((client) => client.readResource({ uri }, { timeout: this.opts.connectTimeoutMs }));
  }

  /**
   * Calls a tool once (it may have side effects) — again only when its own request was refused for a
   * lost session (404, or 400 naming the session), which the server never processed. A call that was
   * pending when the connection was lost may have run: it fails with why (see explain). A tool missing
   * from the last good list is not called at all.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<CallToolResult> {
    this.inflight++;
    this.clearIdleTimer();
    try {
      if (this.tools && !this.tools.list.some((t) => t.name === name))
        throw new McpFailure('protocol', `Server "${this.name}" does not offer a tool "${name}" (any more).`);
      try {
        return await this.callOnce(name, args, opts);
      } catch (err) {
        if (!isSessionExpired(err)) throw err;
        return await this.callOnce(name, args, opts);
      }
    } catch (err) {
      throw classifyError(err);
    } finally {
      this.inflight--;
      if (this.inflight === 0) this.armIdleTimer();
    }
  }

  private async callOnce(
    name: string,
    args: Record<string, unknown>,
    opts: CallOptions,
  ): Promise<CallToolResult> {
    const client = await untilAborted(this.getClient(), opts.signal);
    const maxTotalMs = Math.max(this.opts.maxTotalCallMs, this.config.timeoutMs);
    const result = await callWithCaps(
      client,
      name,
      args,
      { timeoutMs: this.config.timeoutMs, maxTotalMs },
      opts,
    ).catch((err: unknown) => {
      this.lose(client, err);
      throw isSessionExpired(err) ? err : this.explain(client, err);
    });
    this.backoff.succeeded();
    return result;
  }

  private armIdleTimer(): void {
    this.clearIdleTimer();
    if (!this.client || this.inflight > 0) return;
    this.idleTimer = setTimeout(() => void this.disconnectIdle(), this.opts.idleMs);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private async disconnectIdle(): Promise<void> {
    const client = this.client;
    if (!client || this.inflight > 0) return;
    this.client = null;
    this.connectedSince = null;
    this.state = 'idle';
    await client.close().catch(() => {});
  }

  /** For good: ends the connection (a stdio child gets stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.closed = true;
    this.clearIdleTimer();
    const client = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    this.connectedSince = null;
    this.state = 'disabled';
    if (client) await client.close().catch(() => {});
  }
}
