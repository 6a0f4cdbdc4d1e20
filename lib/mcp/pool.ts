import 'server-only';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { isAllowed, type Principal } from '@/lib/access';
import { type ConnectionOptions, DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';
import { classifyError, McpFailure } from '@/lib/mcp/errors';
import { processState } from '@/lib/process-state';
import { RefusedConnection, UserPool } from '@/lib/mcp/user-pool';
import type { McpServerConfig, ServerStatusInfo } from '@/lib/schemas/mcp';

export type ServerTools = { server: string; tools: Tool[] } | { server: string; error: McpFailure };

/**
 * What a user's own connection to a `scope: "user"` server runs with: the admin's config plus the
 * user's working folder and the values they supply. Throws an McpFailure (kind `auth`) when the user
 * has not supplied what the server needs; the server then cannot start for them.
 */
export type UserSetup = (
  config: McpServerConfig,
  user: Principal,
) => {
  config: McpServerConfig;
  authProvider?: ConnectionOptions['authProvider'];
  /** The config the connection starts with, completed with what is stored for the user (read when it connects). */
  prepare?: ConnectionOptions['prepare'];
};

/** Caps on per-user connections that are live (a child process or a session): per user and in all. */
export type PoolLimits = { perUser: number; total: number };

export const DEFAULT_POOL_LIMITS: PoolLimits = { perUser: 10, total: 200 };

/** One user's live connection to a per-user server, for the admin's view (never their credentials). */
export type UserConnectionInfo = { user: { id: string; email: string } } & ServerStatusInfo;

/** JSON with object keys sorted: equal configs compare equal whatever order their keys were written in. */
const stableJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
/** A config as it behaves: no `apps` is the default (apps on, no permissions), so saving it explicitly is no change. */
const canonical = (c: McpServerConfig) => ({ ...c, apps: c.apps ?? { enabled: true, permissions: [] } });
const sameConfig = (a: McpServerConfig, b: McpServerConfig) =>
  stableJson(canonical(a)) === stableJson(canonical(b));
const withoutRoots = (c: McpServerConfig) => ({ ...c, roots: undefined });

type UserConnection = { conn: McpConnection; user: Principal };

/**
 * The connections of the process. It is handed configs (it never reads the database) and reconciles:
 * new servers are added, changed ones reconnected, removed or disabled ones closed — without touching
 * the others. A `shared` server has one connection; a `user` server one per user, made on first use.
 *
 * Who may use a server is decided here and only here (`forUser`): every path to a server — the model's
 * tools, calls, prompts, resources, catalogs — goes through a user's view, and to a user the allow
 * list leaves out the server does not exist.
 */
export class McpPool {
  private readonly configs = new Map<string, McpServerConfig>();
  private readonly shared = new Map<string, McpConnection>();
  /** server name → user id → that user's connection. */
  private readonly perUser = new Map<string, Map<string, UserConnection>>();
  private readonly opts: ConnectionOptions;
  /**
   * Told of every fresh tool list (the app records definitions and detects changes), with the user whose
   * own connection listed it (null: a shared server's): a per-user server may describe tools per user.
   */
  toolsObserver: ((server: string, tools: Tool[], user: Principal | null) => void | Promise<void>) | null =
    null;
  /** The app's per-user setup (working folder, user-supplied values); without it the admin's config runs as is. */
  userSetup: UserSetup = (config) => ({ config });
  limits: PoolLimits = DEFAULT_POOL_LIMITS;

  constructor(opts: ConnectionOptions = DEFAULT_CONNECTION_OPTIONS) {
    this.opts = { ...opts, onTools: (server, tools) => this.toolsObserver?.(server, tools, null) };
  }

  sync(configs: McpServerConfig[]): void {
    const wanted = new Map(configs.map((c) => [c.name, c]));
    for (const [name, current] of this.configs) {
      const next = wanted.get(name);
      if (next && !sameConfig(next, current) && sameConfig(withoutRoots(next), withoutRoots(current)))
        if (this.updateRoots(next)) continue;
      if (!next || !sameConfig(next, current)) this.closeServer(name);
    }
    for (const config of configs) {
      if (this.configs.has(config.name)) continue;
      this.configs.set(config.name, config);
      if (config.scope === 'shared') this.shared.set(config.name, new McpConnection(config, this.opts));
    }
  }

  /** Only the roots changed: live connections are told (list_changed) instead of restarted. */
  private updateRoots(config: McpServerConfig): boolean {
    const shared = this.shared.get(config.name);
    if (shared && !shared.updateRoots(config.roots ?? [])) return false;
    for (const { conn, user } of this.perUser.get(config.name)?.values() ?? []) {
      let roots: string[];
      try {
        roots = this.userSetup(config, user).config.roots ?? [];
      } catch {
        return false;
      }
      if (!conn.updateRoots(roots)) return false;
    }
    this.configs.set(config.name, config);
    return true;
  }

  private closeServer(name: string): void {
    this.configs.delete(name);
    const conn = this.shared.get(name);
    this.shared.delete(name);
    if (conn) void conn.close();
    for (const { conn } of this.perUser.get(name)?.values() ?? []) void conn.close();
    this.perUser.delete(name);
  }

  /** Connects every enabled shared server in the background, so the first chat turn finds them ready. */
  warm(): void {
    for (const conn of this.shared.values()) {
      if (conn.config.enabled) void conn.listTools().catch(() => {});
    }
  }

  /** The shared connection of a server (admin status, tests); per-user servers have none. */
  get(name: string): McpConnection | undefined {
    return this.shared.get(name);
  }

  config(name: string): McpServerConfig | undefined {
    return this.configs.get(name);
  }

  /** Every shared connection's status (the metrics page). */
  statuses(): ServerStatusInfo[] {
    return [...this.shared.values()].map((c) => c.status());
  }

  /** The live per-user connections of a server: whose, and their status and last error. */
  userConnections(name: string): UserConnectionInfo[] {
    return [...(this.perUser.get(name)?.values() ?? [])]
      .filter(({ conn }) => conn.live || conn.status().status === 'error')
      .map(({ conn, user }) => ({ user: { id: user.id, email: user.email }, ...conn.status() }));
  }

  /** Every connection of a server (shared or each user's): for the admin's logs page. */
  connectionsOf(name: string): Array<{ user: Principal | null; conn: McpConnection }> {
    const shared = this.shared.get(name);
    return [
      ...(shared ? [{ user: null, conn: shared }] : []),
      ...[...(this.perUser.get(name)?.values() ?? [])].map(({ conn, user }) => ({ user, conn })),
    ];
  }

  /** Ends one user's connection to a server (their values or sign-in changed, or they disconnected). */
  async closeUser(name: string, userId: string): Promise<void> {
    const entry = this.perUser.get(name)?.get(userId);
    if (!entry) return;
    this.perUser.get(name)?.delete(userId);
    await entry.conn.close();
  }

  /** Ends every connection of one user (the account was disabled or deleted). */
  async closeAllOfUser(userId: string): Promise<void> {
    await Promise.all([...this.perUser.keys()].map((name) => this.closeUser(name, userId)));
  }

  /** A user's view: only the servers they may use, each on the connection that is theirs. */
  forUser(user: Principal): UserPool {
    return new UserPool(this, user);
  }

  /** The servers a user may use: enabled, and on their allow list. */
  usableBy(user: Principal): McpServerConfig[] {
    return [...this.configs.values()].filter((c) => c.enabled && isAllowed(c.allow, user));
  }

  /**
   * The connection a user's requests to a server go through, or undefined when the server does not
   * exist for them. `asAdmin` skips the allow list (the admin pages inspect every server).
   */
  connectionFor(name: string, user: Principal, asAdmin = false): McpConnection | undefined {
    const config = this.configs.get(name);
    if (!config?.enabled || !(asAdmin || isAllowed(config.allow, user))) return undefined;
    if (config.scope === 'shared') return this.shared.get(name);
    let byUser = this.perUser.get(name);
    if (!byUser) {
      byUser = new Map();
      this.perUser.set(name, byUser);
    }
    const existing = byUser.get(user.id);
    if (existing) return existing.conn;
    // The user's setup may refuse (values not supplied): the connection then reports that on use.
    let own: ReturnType<UserSetup>;
    try {
      own = this.userSetup(config, user);
    } catch (err) {
      return new RefusedConnection(config, classifyError(err));
    }
    const conn = new McpConnection(own.config, {
      ...this.opts,
      onTools: (server, tools) => this.toolsObserver?.(server, tools, user),
      authProvider: own.authProvider,
      prepare: own.prepare,
    });
    byUser.set(user.id, { conn, user });
    return conn;
  }

  /** Refuses a user's new connection when they or everyone together hold the most allowed. */
  assertRoom(conn: McpConnection, user: Principal): void {
    if (conn.live || conn.config.scope === 'shared') return;
    let mine = 0;
    let all = 0;
    for (const byUser of this.perUser.values()) {
      for (const [id, { conn: c }] of byUser) {
        if (!c.live) continue;
        all++;
        if (id === user.id) mine++;
      }
    }
    if (mine >= this.limits.perUser)
      throw new McpFailure(
        'connection',
        `You have ${mine} MCP servers running, the most allowed per user (${this.limits.perUser}); unused ones close after a while of no use.`,
      );
    if (all >= this.limits.total)
      throw new McpFailure(
        'connection',
        `The host runs ${all} per-user MCP connections, its limit (${this.limits.total}); try again later.`,
      );
  }

  async closeAll(): Promise<void> {
    const all = [
      ...this.shared.values(),
      ...[...this.perUser.values()].flatMap((m) => [...m.values()].map((e) => e.conn)),
    ];
    this.shared.clear();
    this.perUser.clear();
    this.configs.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}

/** The process-wide pool (lib/process-state.ts: Next compiles routes and instrumentation as separate module graphs). */
export function getPool(): McpPool {
  return processState('pool', () => new McpPool());
}
