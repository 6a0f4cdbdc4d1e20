import type { McpServerConfig, ServerStatus, ServerStatusInfo } from '@/lib/schemas/mcp';
import type { UserConnectionInfo } from '@/lib/mcp/pool';

/**
 * A server's status as the admin sees it, from what each server process (worker or instance) holds:
 * each has its own connections. One process's view alone showed "connected" while another process's
 * connection of the same server failed, and its users' calls with it.
 */

/** The processes holding a shared server's connection; how many of them are connected, how many failing. */
export type ProcessCount = { total: number; connected: number; failing: number };

/** Which status a server shows when its processes differ: a failure anywhere first, then a connection. */
const RANK: Record<ServerStatus, number> = { error: 4, connected: 3, connecting: 2, idle: 1, disabled: 0 };

const latest = (errors: Array<ServerStatusInfo['lastError']>) =>
  errors
    .flatMap((e) => (e ? [e] : []))
    .sort((a, b) => a.at.localeCompare(b.at))
    .at(-1) ?? null;

const earliest = (times: Array<string | null>) => times.flatMap((t) => (t ? [t] : [])).sort()[0] ?? null;

/**
 * A shared server's status over every process that holds its connection (null when none does): the
 * highest-ranked status (a failing process's, with its error and retry time), the earliest connection,
 * the most tools any sees, and the count of processes.
 */
export function mergeShared(
  all: ServerStatusInfo[],
): (ServerStatusInfo & { processes: ProcessCount }) | null {
  const first = all[0];
  if (!first) return null;
  const shown = all.reduce((a, b) => (RANK[b.status] > RANK[a.status] ? b : a), first);
  const connected = all.filter((s) => s.status === 'connected');
  return {
    ...shown,
    lastError: shown.lastError ?? latest(all.map((s) => s.lastError)),
    connectedSince: earliest(connected.map((s) => s.connectedSince)),
    toolCount: Math.max(...all.map((s) => s.toolCount)),
    processes: {
      total: all.length,
      connected: connected.length,
      failing: all.filter((s) => s.status === 'error').length,
    },
  };
}

/**
 * A per-user server's status as one line, from its users' connections in every process: connected while
 * any user's connection is, the newest error among them, and how many users hold one (the detail page
 * lists them).
 */
export function mergeUsers(
  config: McpServerConfig,
  all: UserConnectionInfo[],
): ServerStatusInfo & { users: number } {
  const connected = all.filter((c) => c.status === 'connected');
  return {
    name: config.name,
    status: connected.length ? 'connected' : config.enabled ? 'idle' : 'disabled',
    lastError: latest(all.map((c) => c.lastError)),
    connectedSince: earliest(connected.map((c) => c.connectedSince)),
    toolCount: Math.max(0, ...all.map((c) => c.toolCount)),
    retryAt: null,
    // One user's connections in two processes are one user.
    users: new Set(all.map((c) => c.user.id)).size,
  };
}
