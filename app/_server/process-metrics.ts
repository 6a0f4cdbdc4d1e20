import 'server-only';
import { statementCount } from '@/db/client';
import { instanceName } from '@/app/_server/cluster-worker';
import { runningTurnCount, turnBufferBytes } from '@/app/_server/running-turns';
import { firstTokenGate } from '@/lib/chat/first-token-gate';
import { getPool } from '@/lib/mcp/pool';
import type { ServerStatusInfo } from '@/lib/schemas/mcp';
import { processState } from '@/lib/process-state';
import { sharedBus } from '@/lib/shared/bus';
import { BusRequests, GATHER_MS } from '@/lib/shared/bus-requests';

/**
 * GET /api/admin/metrics: the answering process's figures, and with REDIS_URL every server process's
 * (workers and instances, asked over the bus; at most GATHER_MS), each named by its instance: its running
 * answers (an operator draining an instance waits until its processes run none), memory, CPU, SQL
 * statements and its connections of the shared MCP servers.
 */

/** What each process tells about itself. */
export type ProcessFigures = {
  instance: string;
  pid: number;
  runningTurns: number;
  turnBufferBytes: number;
  rssBytes: number;
  cpuMs: number;
  uptimeS: number;
  sqlStatements: number;
  heapUsedBytes: number;
  /** Its connections of the shared MCP servers (each process holds its own). */
  mcp: ServerStatusInfo[];
};

declare module '@/lib/process-state' {
  interface OwnedSlots {
    processMetrics: BusRequests<Record<string, never>, ProcessFigures>;
  }
}

function otherProcesses(): BusRequests<Record<string, never>, ProcessFigures> | null {
  const bus = sharedBus();
  return bus
    ? processState('processMetrics', () => new BusRequests(bus, 'process-metrics', figuresHere))
    : null;
}

function figuresHere(): ProcessFigures {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return {
    instance: instanceName(),
    pid: process.pid,
    runningTurns: runningTurnCount(),
    turnBufferBytes: turnBufferBytes(),
    rssBytes: memory.rss,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    uptimeS: Math.round(process.uptime()),
    sqlStatements: statementCount(),
    heapUsedBytes: memory.heapUsed,
    mcp: getPool().statuses(),
  };
}

export async function processMetrics() {
  const here = figuresHere();
  const others = (await otherProcesses()?.gather({}, GATHER_MS)) ?? [];
  return {
    sqlStatements: here.sqlStatements,
    rssBytes: here.rssBytes,
    heapUsedBytes: here.heapUsedBytes,
    cpuMs: here.cpuMs,
    uptimeS: here.uptimeS,
    runningTurns: here.runningTurns,
    turnBufferBytes: here.turnBufferBytes,
    firstToken: firstTokenGate().figures(),
    mcp: here.mcp,
    /** Every server process (this one first), by instance: the same figures but the first-token gate's. */
    processes: [here, ...others.sort((a, b) => a.instance.localeCompare(b.instance) || a.pid - b.pid)],
  };
}

/** Startup, with REDIS_URL: answer other processes asking for this one's figures. */
export function serveProcessMetrics(): void {
  otherProcesses()?.listen('process metrics');
}
