import 'server-only';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '@/lib/access';
import { type CallOptions, McpConnection } from '@/lib/mcp/connection';
import { classifyError, McpFailure } from '@/lib/mcp/errors';
import type { McpPool, ServerTools } from '@/lib/mcp/pool';
import { type PublicFailure, publicFailure } from '@/lib/mcp/public-failure';
import type { McpServerConfig, ServerStatusInfo } from '@/lib/schemas/mcp';

// One user's view of the pool (McpPool.forUser), and the stand-in for a connection that cannot start
// for a user. Kept apart from the pool itself, which owns the connections and the caps.

/** Waits at most `ms` for a promise; a server that is slow to connect must not hold up a chat turn. */
function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A connection that cannot start for this user (they have not supplied a value the server needs): it
 * reports why on every use and holds nothing. Not kept, so it is retried once the user supplies it.
 */
export class RefusedConnection extends McpConnection {
  constructor(
    config: McpServerConfig,
    private readonly why: McpFailure,
  ) {
    super({ ...config, enabled: false });
  }

  override getClient(): Promise<never> {
    return Promise.reject(this.why);
  }

  override status(): ServerStatusInfo {
    return {
      ...super.status(),
      status: 'error',
      lastError: { kind: this.why.kind, message: this.why.message, at: new Date().toISOString() },
    };
  }

  override listTools(): Promise<Tool[]> {
    return Promise.reject(this.why);
  }

  override callTool(): Promise<CallToolResult> {
    return Promise.reject(this.why);
  }
}

/** One user's view of the pool (McpPool.forUser). */
export class UserPool {
  constructor(
    private readonly pool: McpPool,
    readonly user: Principal,
  ) {}

  /** The user's connection to a server (with room for it), or undefined when it does not exist for them. */
  connection(server: string): McpConnection | undefined {
    const conn = this.pool.connectionFor(server, this.user);
    if (conn) this.pool.assertRoom(conn, this.user);
    return conn;
  }

  /** The servers the user may use. */
  servers(): McpServerConfig[] {
    return this.pool.usableBy(this.user);
  }

  /** The user's status with a server (idle before first use). */
  status(server: string): ServerStatusInfo | undefined {
    return this.pool.connectionFor(server, this.user)?.status();
  }

  /** Tools of the servers named (all the user may use when omitted); a broken or slow server is reported, not waited on. */
  async tools(names?: readonly string[], waitMs = 5_000): Promise<ServerTools[]> {
    const servers = this.servers().filter((c) => !names || names.includes(c.name));
    return Promise.all(
      servers.map(async ({ name }): Promise<ServerTools> => {
        try {
          const conn = this.connection(name);
          if (!conn) throw new McpFailure('connection', `Server "${name}" is not available.`);
          const tools = await within(
            conn.listTools(),
            waitMs,
            () => new McpFailure('timeout', `Server "${name}" is still connecting.`),
          );
          return { server: name, tools };
        } catch (err) {
          return { server: name, error: classifyError(err) };
        }
      }),
    );
  }

  /** What the user may be told about a failure of `server`; the detail is logged, its secrets masked, and kept for its logs page. */
  publicFailure(server: string, err: unknown): PublicFailure {
    const conn = this.pool.connectionFor(server, this.user);
    return publicFailure(server, err, conn && { secrets: conn.secrets(), log: conn.failures });
  }

  /** A failed call rejects with a referenced McpFailure (its message is the masked detail; see publicFailure). */
  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<CallToolResult> {
    let call: Promise<CallToolResult>;
    try {
      const conn = this.connection(server);
      call = conn
        ? conn.callTool(tool, args, { ...opts, owner: this.user.id })
        : Promise.reject(new McpFailure('connection', `Server "${server}" is not available.`));
    } catch (err) {
      call = Promise.reject(err);
    }
    // Referenced here, where the server's secrets are known; a call the user stopped is no failure to report.
    return call.catch((err: unknown) => {
      throw opts?.signal?.aborted ? err : this.publicFailure(server, err).failure;
    });
  }
}
