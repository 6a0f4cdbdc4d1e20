import 'server-only';
import { getPool, type UserConnectionInfo } from '@/lib/mcp/pool';
import type { ServerStatusInfo } from '@/lib/schemas/mcp';
import { processState } from '@/lib/process-state';
import { sharedBus } from '@/lib/shared/bus';
import { BusRequests, GATHER_MS } from '@/lib/shared/bus-requests';

/**
 * The live status of MCP servers for the admin pages: this process's connections, and with REDIS_URL
 * every other worker's and instance's (each holds its own), asked over the bus. Every process answers,
 * even with nothing, so the asking ends as soon as all have (at most GATHER_MS).
 */

/** One process's connections of a server: the shared one's status, or each user's. */
export type ProcessStatus = { shared: ServerStatusInfo | null; users: UserConnectionInfo[] };
type Question = { names: string[] };
type Reply = Record<string, ProcessStatus>;

declare module '@/lib/process-state' {
  interface OwnedSlots {
    serverStatuses: BusRequests<Question, Reply>;
  }
}

function otherProcesses(): BusRequests<Question, Reply> | null {
  const bus = sharedBus();
  return bus
    ? processState('serverStatuses', () => new BusRequests(bus, 'server-statuses', statusesHere))
    : null;
}

function statusesHere({ names }: Question): Reply {
  const pool = getPool();
  const reply: Reply = {};
  for (const name of Array.isArray(names) ? names : []) {
    if (typeof name !== 'string') continue;
    const shared = pool.get(name)?.status() ?? null;
    const users = pool.userConnections(name);
    if (shared || users.length) reply[name] = { shared, users };
  }
  return reply;
}

/** Each named server's connections, one entry per process that holds any (this one first). */
export async function liveStatuses(names: string[]): Promise<Map<string, ProcessStatus[]>> {
  const remote = otherProcesses();
  const replies = [
    statusesHere({ names }),
    ...(remote && names.length ? await remote.gather({ names }, GATHER_MS) : []),
  ];
  const byName = new Map<string, ProcessStatus[]>();
  for (const reply of replies)
    for (const name of names) {
      const status = reply[name];
      if (status) byName.set(name, [...(byName.get(name) ?? []), status]);
    }
  return byName;
}

/** Startup, with REDIS_URL: answer other processes asking for this one's server statuses. */
export function serveServerStatuses(): void {
  otherProcesses()?.listen('server statuses');
}
