import 'server-only';
import { getDb } from '@/db/client';
import { recentCalls } from '@/db/queries/tool-calls';
import { requireServer } from '@/app/_server/mcp-admin';
import type { ServerLogEntry } from '@/lib/mcp/notification-limit';
import { getPool } from '@/lib/mcp/pool';
import type { FailureNote } from '@/lib/mcp/public-failure';
import { processState } from '@/lib/process-state';
import { sharedBus } from '@/lib/shared/bus';
import { BusRequests, GATHER_MS } from '@/lib/shared/bus-requests';

/**
 * The admin's logs page of a server: what its connections in this process hold (stderr, log messages,
 * failures), and with REDIS_URL what they hold in every other worker and instance (each has its own
 * connections), gathered over the bus for a moment and merged.
 */

type ProcessLogs = {
  stderr: string[];
  messages: Array<ServerLogEntry & { user: string | null }>;
  failures: FailureNote[];
};

declare module '@/lib/process-state' {
  interface OwnedSlots {
    serverLogs: BusRequests<{ server: string }, ProcessLogs>;
  }
}

function otherInstances(): BusRequests<{ server: string }, ProcessLogs> | null {
  const bus = sharedBus();
  return bus
    ? processState('serverLogs', () => new BusRequests(bus, 'server-logs', ({ server }) => logsHere(server)))
    : null;
}

/**
 * This process's logs of a server (empty when it has no connection of it: still an answer, so the
 * asking process need not wait out GATHER_MS for it).
 */
function logsHere(server: string): ProcessLogs {
  // Every connection of the server: the shared one, or each user's (their lines marked with their email).
  const all = getPool().connectionsOf(server);
  const mark = (user: { email: string } | null, line: string) => (user ? `[${user.email}] ${line}` : line);
  return {
    stderr: all.flatMap(({ user, conn }) => conn.stderr.tail().map((line) => mark(user, line))),
    messages: all.flatMap(({ user, conn }) =>
      conn.logs.list().map((m) => ({ ...m, user: user?.email ?? null })),
    ),
    failures: all.flatMap(({ conn }) => conn.failures.list()),
  };
}

export async function serverLogs(id: string) {
  const record = await requireServer(id);
  const name = record.config.name;
  const remote = otherInstances();
  const all = [logsHere(name), ...(remote ? await remote.gather({ server: name }, GATHER_MS) : [])];
  return {
    stderr: all.flatMap((logs) => logs.stderr),
    /** The server's log messages (masked, rate-limited), oldest first; a user's connection names them. */
    messages: all.flatMap((logs) => logs.messages).sort((a, b) => a.at.localeCompare(b.at)),
    logLevel: record.config.logLevel ?? null,
    calls: await recentCalls(getDb(), name),
    failures: all.flatMap((logs) => logs.failures).sort((a, b) => String(a.at).localeCompare(String(b.at))),
  };
}

/** Startup, with REDIS_URL: answer other instances asking for this process's logs of a server. */
export function serveServerLogs(): void {
  otherInstances()?.listen('server logs');
}
