import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Backoff } from '@/lib/mcp/backoff';
import { callWithCaps } from '@/lib/mcp/call-tool';
import { ClientSide } from '@/lib/mcp/client-side';
import { connectClient } from '@/lib/mcp/connect';
import {
  type CallOptions,
  type ConnectionOptions,
  DEFAULT_CONNECTION_OPTIONS,
} from '@/lib/mcp/connection-options';
import { ConnectionHealth } from '@/lib/mcp/connection-health';
import { StatusTracker } from '@/lib/mcp/connection-status';
import { classifyError, isConnectionLost, isSessionExpired, McpFailure } from '@/lib/mcp/errors';
import { LineBuffer } from '@/lib/mcp/line-buffer';
import { ServerLogSink } from '@/lib/mcp/notification-limit';
import { ResourceWatch } from '@/lib/mcp/resource-watch';
import { FailureLog, secretsOf } from '@/lib/mcp/public-failure';
import { withTokensSeen } from '@/lib/mcp/oauth/tokens-seen';
import { listAllTools, ToolCache } from '@/lib/mcp/tool-cache';
import { untilAborted } from '@/lib/mcp/until-aborted';
import type { McpServerConfig, ServerStatusInfo } from '@/lib/schemas/mcp';

export {
  type CallOptions,
  type ConnectionOptions,
  DEFAULT_CONNECTION_OPTIONS,
} from '@/lib/mcp/connection-options';

/**
 * One long-lived connection to one MCP server, shared by every request and user: lazy connect
 * (concurrent callers share one attempt), cached tool list refreshed on list_changed and after a
 * reconnect, a circuit breaker with capped exponential backoff (Backoff), idle close when no call runs.
 */
export class McpConnection {
  readonly stderr = new LineBuffer();
  /** Failures users were told about (by reference only), with their detail for the admin's logs page. */
  readonly failures = new FailureLog();
  /** The server's log messages (notifications/message), masked and rate-limited, for the admin's page. */
  readonly logs: ServerLogSink;
  /** Attached resources subscribed to, and which changed since they were read. */
  readonly watch = new ResourceWatch();
  /** tools/list requests sent (tests and benchmarks read it). */
  listRequests = 0;
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  /** Status, last error and connected-since, for status(). */
  private readonly tracker: StatusTracker;
  private readonly backoff: Backoff;
  private inflight = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly tools: ToolCache;
  private readonly health: ConnectionHealth;
  /** Elicitation, sampling and roots: what this connection answers as the client. */
  private readonly side: ClientSide;
  /** Secrets of the config the connection was last started with, beyond its own config's. */
  private startedWith: string[] = [];

  constructor(
    readonly config: McpServerConfig,
    private readonly opts: ConnectionOptions = DEFAULT_CONNECTION_OPTIONS,
  ) {
    this.tracker = new StatusTracker(config.enabled);
    this.side = new ClientSide(config);
    this.logs = ServerLogSink.forConfig(config);
    this.backoff = new Backoff(opts.baseBackoffMs, opts.maxBackoffMs);
    this.tools = new ToolCache({
      server: config.name,
      ttlMs: opts.toolsTtlMs,
      // After a lost session the listing starts over: a cursor belongs to its session.
      fetch: () =>
        this.health.request((client) =>
          listAllTools(
            client,
            this.opts.connectTimeoutMs,
            () => this.listRequests++,
            (why) => this.logs.note(why, Date.now(), 'warning'),
          ),
        ),
      onFetched: () => this.backoff.succeeded(),
      onTools: (list) => this.opts.onTools?.(this.name, list),
    });
    this.health = new ConnectionHealth({
      name: config.name,
      isCurrent: (client) => this.client === client,
      getClient: () => this.getClient(),
      lose: (client, err) => this.lose(client, err),
    });
  }

  /**
   * The secrets to mask in what is logged of this connection: the admin's (its config), the values it
   * was started with (a per-user connection's own values, added by ConnectionOptions.prepare) and the
   * user's OAuth tokens it has sent.
   */
  secrets(): string[] {
    return [...secretsOf(this.config), ...this.startedWith];
  }

  private maskAlso(secrets: string[]): void {
    if (secrets.every((s) => this.startedWith.includes(s))) return;
    this.startedWith = [...new Set([...this.startedWith, ...secrets])];
    this.logs.maskAlso(this.startedWith);
  }

  get name(): string {
    return this.config.name;
  }

  /** Connected or connecting: it holds (or is starting) a child process or a session. */
  get live(): boolean {
    return this.client !== null || this.connecting !== null;
  }

  status(): ServerStatusInfo {
    return this.tracker.info(this.name, this.tools.count, this.backoff);
  }

  /** The connected client; connects if needed. Fails fast while the backoff after a failed connect runs. */
  getClient(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    if (this.connecting) return this.connecting;
    if (this.closed || !this.config.enabled)
      return Promise.reject(new McpFailure('connection', `Server "${this.name}" is disabled.`));
    const wait = this.backoff.remaining();
    if (wait > 0) return Promise.reject(this.tracker.unavailable(this.name, wait));
    this.connecting = this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    this.tracker.state = 'connecting';
    let client: Client;
    try {
      const config = this.opts.prepare ? await this.opts.prepare() : this.config;
      if (config !== this.config) this.maskAlso(secretsOf(config));
      client = await connectClient(config, {
        stderr: this.stderr,
        timeoutMs: this.opts.connectTimeoutMs,
        onToolListChanged: () => this.tools.changed(), // re-lists in the background, throttled
        handlers: this.side.handlers(),
        authProvider:
          this.opts.authProvider && withTokensSeen(this.opts.authProvider, (t) => this.maskAlso(t)),
        logs: this.logs,
        logLevel: this.config.logLevel,
        onResourceUpdated: (uri) => this.watch.updated(uri),
      });
    } catch (err) {
      const failure = classifyError(err);
      this.backoff.failed();
      this.tracker.failed(failure, this.stderr);
      throw failure;
    }
    if (this.closed) {
      await client.close().catch(() => {});
      throw new McpFailure('connection', `Server "${this.name}" was closed.`);
    }
    client.onclose = () =>
      this.lose(client, new McpFailure('connection', 'The server closed the connection'));
    client.onerror = (err) => this.health.onTransportError(client, err);
    this.health.watch(client);
    this.client = client;
    this.tracker.connected();
    this.backoff.connected();
    this.tools.invalidate(); // re-list after a reconnect; keep the last good list meanwhile
    void this.watch.renew(client, this.opts.connectTimeoutMs);
    this.armIdleTimer();
    return client;
  }

  /**
   * New roots from the admin (see ClientSide.updateRoots): false when the connection must be rebuilt.
   */
  updateRoots(roots: string[]): boolean {
    return this.side.updateRoots(roots, this.client, this.connecting !== null);
  }

  /**
   * The connection failed (the server exited; a network error, HTTP 5xx, or the server forgot our
   * session): drop it, so the next use reconnects — or fails fast while backing off (see Backoff).
   * Closing the client rejects every request still pending on it (the SDK's onclose), with the
   * reason kept in `losses` for explain().
   */
  private lose(client: Client, err: unknown): void {
    if (!(err instanceof McpFailure || isConnectionLost(err)) || this.client !== client) return;
    const { failure, sessionExpired } = this.health.recordLoss(client, err);
    this.client = null;
    this.tracker.connectedSince = null;
    this.clearIdleTimer();
    this.tools.invalidate();
    void this.health.closeDropped(client);
    if (this.closed) return;
    // The server is up but forgot us: a new session is due at once.
    if (!sessionExpired) this.backoff.lost();
    this.tracker.failed(failure, this.stderr);
  }

  /** The server's tools, from cache when fresh; a stale cache is served while it refreshes in the background. */
  listTools(): Promise<Tool[]> {
    return this.tools.get();
  }

  /**
   * A request without side effects (lib/mcp/context-requests: prompts, resources, completion; resource
   * subscriptions), with the request timeout: sent once more on a lost session (health.request).
   */
  async request<T>(run: (client: Client, timeout: number) => Promise<T>): Promise<T> {
    return this.health.request((client) => run(client, this.opts.connectTimeoutMs));
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
    const leave = this.side.enter(opts.owner, opts.hooks);
    try {
      if (this.tools.lacks(name))
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
      leave();
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
      { ...opts, asTask: this.tools.find(name)?.execution?.taskSupport === 'required' },
    ).catch((err: unknown) => {
      this.lose(client, err);
      throw isSessionExpired(err) ? err : this.health.explain(client, err);
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
    this.tracker.ended('idle');
    await client.close().catch(() => {});
  }

  /** For good: ends the connection (a stdio child gets stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.closed = true;
    this.clearIdleTimer();
    const client = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    this.tracker.ended('disabled');
    if (client) await client.close().catch(() => {});
  }
}
