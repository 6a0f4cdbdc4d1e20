import 'server-only';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress, Tool } from '@modelcontextprotocol/sdk/types.js';
import { connectClient, type ConnectOptions } from '@/lib/mcp/connect';
import { classifyError, McpFailure } from '@/lib/mcp/errors';
import { LineBuffer } from '@/lib/mcp/line-buffer';
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


/**
 * One long-lived connection to one MCP server, shared by every request and user: lazy connect
 * (concurrent callers share one attempt), cached tool list refreshed on list_changed and after a
 * reconnect, capped exponential backoff after failed connects, idle close when no call is in flight.
 */
export class McpConnection {
  readonly stderr = new LineBuffer();
  /** tools/list requests sent (tests and benchmarks read it). */
  listRequests = 0;
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private state: ServerStatus;
  private lastError: { kind: McpFailure['kind']; message: string; at: Date } | null = null;
  private connectedSince: Date | null = null;
  private failures = 0;
  private retryAt = 0;
  private inflight = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private tools: { list: Tool[]; fetchedAt: number } | null = null;
  private listing: Promise<Tool[]> | null = null;
  private changedWhileListing = false;
  private closed = false;

  constructor(
    readonly config: McpServerConfig,
    private readonly opts: ConnectionOptions = DEFAULT_CONNECTION_OPTIONS,
  ) {
    this.state = config.enabled ? 'idle' : 'disabled';
  }

  get name(): string {
    return this.config.name;
  }

  status(): ServerStatusInfo {
    return {
      name: this.name,
      status: this.state,
      lastError: this.lastError && { ...this.lastError, at: this.lastError.at.toISOString() },
      connectedSince: this.connectedSince?.toISOString() ?? null,
      toolCount: this.tools?.list.length ?? 0,
      retryAt: this.retryAt > Date.now() ? new Date(this.retryAt).toISOString() : null,
    };
  }

  /** The connected client; connects if needed. Fails fast while the backoff after a failed connect runs. */
  getClient(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    if (this.connecting) return this.connecting;
    if (this.closed || !this.config.enabled) return Promise.reject(new McpFailure('connection', `Server "${this.name}" is disabled.`));
    const wait = this.retryAt - Date.now();
    if (wait > 0) {
      const why = this.lastError?.message ?? 'it failed';
      return Promise.reject(new McpFailure(this.lastError?.kind ?? 'connection', `Server "${this.name}" is unavailable (${why}); next retry in ${Math.ceil(wait / 1000)} s.`));
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
      });
    } catch (err) {
      const failure = classifyError(err);
      this.failures++;
      this.retryAt = Date.now() + Math.min(this.opts.baseBackoffMs * 2 ** (this.failures - 1), this.opts.maxBackoffMs);
      this.markError(failure);
      throw failure;
    }
    if (this.closed) {
      await client.close().catch(() => {});
      throw new McpFailure('connection', `Server "${this.name}" was closed.`);
    }
    client.onclose = () => this.onClientClosed(client);
    this.client = client;
    this.state = 'connected';
    this.connectedSince = new Date();
    this.failures = 0;
    this.retryAt = 0;
    this.lastError = null;
    if (this.tools) this.tools.fetchedAt = 0; // re-list after a reconnect; keep the last good list meanwhile
    this.armIdleTimer();
    return client;
  }

  private markError(failure: McpFailure): void {
    this.state = 'error';
    const lastLine = this.stderr.tail().at(-1);
    const detail = lastLine && failure.kind === 'connection' && !failure.message.includes(lastLine) ? ` — stderr: ${lastLine}` : '';
    this.lastError = { kind: failure.kind, message: `${failure.message}${detail}`.slice(0, 1000), at: new Date() };
  }

  /** The server went away (crash, exit, network): pending calls have already failed; reconnect on next use. */
  private onClientClosed(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.connectedSince = null;
    this.clearIdleTimer();
    if (this.tools) this.tools.fetchedAt = 0;
    if (this.closed) return;
    this.markError(new McpFailure('connection', 'The server closed the connection'));
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
      const client = await this.getClient();
      const list: Tool[] = [];
      let cursor: string | undefined;
      do {
        this.listRequests++;
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.opts.connectTimeoutMs });
        list.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && list.length < 10_000);
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
  async listResources(): Promise<Array<{ uri: string; name: string; description?: string; mimeType?: string }>> {
    const client = await this.getClient();
    if (!client.getServerCapabilities()?.resources) return [];
    const [resources, templates] = await Promise.all([
      client.listResources(undefined, { timeout: this.opts.connectTimeoutMs }),
      client.listResourceTemplates(undefined, { timeout: this.opts.connectTimeoutMs }).catch(() => ({ resourceTemplates: [] })),
    ]);
    return [
      ...resources.resources.map((r) => ({ uri: r.uri, name: r.name, description: r.description, mimeType: r.mimeType })),
      ...templates.resourceTemplates.map((t) => ({ uri: t.uriTemplate, name: t.name, description: t.description, mimeType: t.mimeType })),
    ];
  }

  async listPrompts(): Promise<Array<{ name: string; description?: string; arguments?: Array<{ name: string; description?: string; required?: boolean }> }>> {
    const client = await this.getClient();
    if (!client.getServerCapabilities()?.prompts) return [];
    const { prompts } = await client.listPrompts(undefined, { timeout: this.opts.connectTimeoutMs });
    return prompts.map((p) => ({ name: p.name, description: p.description, arguments: p.arguments }));
  }

  /** prompts/get: the rendered messages of a prompt. */
  async getPrompt(name: string, args: Record<string, string>) {
    const client = await this.getClient();
    return client.getPrompt({ name, arguments: args }, { timeout: this.opts.connectTimeoutMs });
  }

  /** completion/complete for a prompt argument; [] when the server does not offer completions. */
  async completePromptArgument(prompt: string, argument: string, value: string): Promise<string[]> {
    const client = await this.getClient();
    if (!client.getServerCapabilities()?.completions) return [];
    const result = await client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } }, { timeout: this.opts.connectTimeoutMs });
    return result.completion.values.slice(0, 100);
  }

  /** resources/read */
  async readResource(uri: string) {
    const client = await this.getClient();
    return client.readResource({ uri }, { timeout: this.opts.connectTimeoutMs });
  }

  /** Calls a tool once — never re-sent, since it may have side effects. Progress resets the timeout up to a cap. */
  async callTool(name: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<CallToolResult> {
    this.inflight++;
    this.clearIdleTimer();
    try {
      const client = await untilAborted(this.getClient(), opts.signal);
      return (await client.callTool({ name, arguments: args }, undefined, {
        timeout: this.config.timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: Math.max(this.opts.maxTotalCallMs, this.config.timeoutMs),
        onprogress: opts.onProgress,
        signal: opts.signal,
      })) as CallToolResult;
    } catch (err) {
      throw classifyError(err);
    } finally {
      this.inflight--;
      if (this.inflight === 0) this.armIdleTimer();
    }
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
