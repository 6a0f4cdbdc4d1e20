import 'server-only';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  type CallOptions,
  type ConnectionOptions,
  DEFAULT_CONNECTION_OPTIONS,
  McpConnection,
} from '@/lib/mcp/connection';
import { classifyError, McpFailure } from '@/lib/mcp/errors';
import { configSecrets, type PublicFailure, publicFailure } from '@/lib/mcp/public-failure';
import { processState } from '@/lib/process-state';
import type { McpServerConfig, ServerStatusInfo } from '@/lib/schemas/mcp';

export type ServerTools = { server: string; tools: Tool[] } | { server: string; error: McpFailure };

const sameConfig = (a: McpServerConfig, b: McpServerConfig) => JSON.stringify(a) === JSON.stringify(b);

/** Waits at most `ms` for a promise; a server that is slow to connect must not hold up a chat turn. */
function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The connections of the process, one per server, keyed by server name. It is handed configs (it
 * never reads the database) and reconciles: new servers are added, changed ones reconnected, removed
 * or disabled ones closed — without touching the others.
 */
export class McpPool {
  private readonly connections = new Map<string, McpConnection>();
  private readonly opts: ConnectionOptions;
  /** Told of every fresh tool list (the app records definitions and detects changes). */
  toolsObserver: ((server: string, tools: Tool[]) => void) | null = null;

  constructor(opts: ConnectionOptions = DEFAULT_CONNECTION_OPTIONS) {
    this.opts = { ...opts, onTools: (server, tools) => this.toolsObserver?.(server, tools) };
  }

  sync(configs: McpServerConfig[]): void {
    const wanted = new Map(configs.map((c) => [c.name, c]));
    for (const [name, conn] of this.connections) {
      const next = wanted.get(name);
      if (!next || !sameConfig(next, conn.config)) {
        this.connections.delete(name);
        void conn.close();
      }
    }
    for (const config of configs) {
      if (!this.connections.has(config.name))
        this.connections.set(config.name, new McpConnection(config, this.opts));
    }
  }

  /** Connects every enabled server in the background, so the first chat turn finds them ready. */
  warm(): void {
    for (const conn of this.connections.values()) {
      if (conn.config.enabled) void conn.listTools().catch(() => {});
    }
  }

  get(name: string): McpConnection | undefined {
    return this.connections.get(name);
  }

  statuses(): ServerStatusInfo[] {
    return [...this.connections.values()].map((c) => c.status());
  }

  /** Tools of the enabled servers named (all when omitted); a broken or slow server is reported, not waited on. */
  async tools(names?: readonly string[], waitMs = 5_000): Promise<ServerTools[]> {
    const conns = [...this.connections.values()].filter(
      (c) => c.config.enabled && (!names || names.includes(c.name)),
    );
    return Promise.all(
      conns.map(async (conn): Promise<ServerTools> => {
        try {
          const tools = await within(
            conn.listTools(),
            waitMs,
            () => new McpFailure('timeout', `Server "${conn.name}" is still connecting.`),
          );
          return { server: conn.name, tools };
        } catch (err) {
          return { server: conn.name, error: classifyError(err) };
        }
      }),
    );
  }

  /** What users may be told about a failure of `server`; the detail is logged, its secrets masked, and kept for its logs page. */
  publicFailure(server: string, err: unknown): PublicFailure {
    const conn = this.connections.get(server);
    return publicFailure(server, err, conn && { secrets: configSecrets(conn.config), log: conn.failures });
  }

  /** A failed call rejects with a referenced McpFailure (its message is the masked detail; see publicFailure). */
  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<CallToolResult> {
    const conn = this.connections.get(server);
    const call = conn?.config.enabled
      ? conn.callTool(tool, args, opts)
      : Promise.reject(new McpFailure('connection', `Server "${server}" is not available.`));
    // Referenced here, where the server's secrets are known; a call the user stopped is no failure to report.
    return call.catch((err: unknown) => {
      throw opts?.signal?.aborted ? err : this.publicFailure(server, err).failure;
    });
  }

  async closeAll(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}

/** The process-wide pool (lib/process-state.ts: Next compiles routes and instrumentation as separate module graphs). */
export function getPool(): McpPool {
  return processState('pool', () => new McpPool());
}
