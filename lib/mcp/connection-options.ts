import type { McpServerConfig } from '@/lib/schemas/mcp';
import type { Progress, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallHooks } from '@/lib/mcp/active-calls';
import type { ConnectOptions } from '@/lib/mcp/connect';

/**
 * The tunables of an McpConnection (timeouts, idle close, tool-list TTL, backoff bounds) and the
 * hooks it is given (OAuth, tool-list observer), with the defaults the app runs with;
 * and the per-call options of McpConnection.callTool. Kept apart from the connection's logic;
 * lib/mcp/connection re-exports all of it, so importers are unchanged.
 */

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
  /** OAuth for an http/sse server, one provider per (user, server) (lib/mcp/oauth). */
  authProvider?: ConnectOptions['authProvider'];
  /**
   * Completes the config right before each connect (a user's own values, read from the database then);
   * may throw an McpFailure (kind `auth`) when the user has not supplied what the server needs.
   */
  prepare?: () => Promise<McpServerConfig>;
  /** Told every time a fresh tool list arrives (first connect, reconnect, list_changed, TTL). */
  onTools?: (server: string, tools: Tool[]) => void | Promise<void>;
};

export const DEFAULT_CONNECTION_OPTIONS: ConnectionOptions = {
  idleMs: 10 * 60_000,
  toolsTtlMs: 5 * 60_000,
  connectTimeoutMs: 30_000,
  baseBackoffMs: 1_000,
  maxBackoffMs: 60_000,
  maxTotalCallMs: 10 * 60_000,
};

export type CallOptions = {
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** Whose call this is (a user id): a server's request is never routed to another user's call. */
  owner?: string;
  /** How the caller answers the server's elicitation and sampling requests during this call. */
  hooks?: CallHooks;
};
