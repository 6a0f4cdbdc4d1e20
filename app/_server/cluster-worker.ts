import 'server-only';
import { hostname } from 'node:os';

/**
 * Under `npm start` with several workers (scripts/start.mjs), each worker is told whether it has the
 * start-up duties — migrate the database, mark answers cut short by the last stop as interrupted, sweep
 * unused files — and reports to the primary when its start (instrumentation.ts) is done. Only the first
 * worker of a start has the duties: a worker started again after a crash must not mark the running
 * answers of the other workers as interrupted. One process (no primary) always has them.
 */
export function hasStartupDuties(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.MCP_CHAT_BOOT_DUTIES !== '0';
}

/** Tells the primary this worker finished its start (the primary then starts the others). No-op alone. */
export function reportWorkerReady(): void {
  if (process.env.MCP_CHAT_WORKER_ID && typeof process.send === 'function')
    process.send({ type: 'mcp-chat:ready' });
}

/**
 * Which instance this process belongs to: `host:pid` of the `npm start` that started it (its workers, or
 * its one `next start`), set by scripts/start.mjs; this process's own `host:pid` when started otherwise.
 * The metrics of every process carry it, so an operator draining one instance knows which are its.
 */
export function instanceName(env: NodeJS.ProcessEnv = process.env): string {
  return env.MCP_CHAT_INSTANCE || `${hostname()}:${process.pid}`;
}
