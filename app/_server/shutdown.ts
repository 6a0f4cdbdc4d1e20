import 'server-only';
import { stopAllTurns } from '@/app/_server/running-turns';
import { getPool } from '@/lib/mcp/pool';
import { processState } from '@/lib/process-state';
import { closeSharedRedis } from '@/lib/shared/redis';
import { loggable } from '@/lib/loggable';

/** The whole shutdown may take this long; then the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 9_000;

const drainState = () => processState('shutdown', () => ({ draining: false }));

/** From now on the process is stopping: GET /api/ready answers 503 so load balancers send no new requests. */
export function beginDraining(): void {
  drainState().draining = true;
}

/** Whether SIGTERM / SIGINT has arrived (the process is finishing its answers, then exits). */
export function isDraining(): boolean {
  return drainState().draining;
}

/**
 * SIGTERM / SIGINT: readiness turns 503, refuse new turns, stop every running one and store its answer (interrupted), close
 * the MCP children and the Redis connections, then exit — within 10 s. Replaces Next's own handler, which closes the HTTP server
 * and exits as soon as no response is open, so a turn with no tab attached would be cut before its
 * answer is stored.
 */
export function handleShutdownSignals(): void {
  let started = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    beginDraining();
    const deadline = setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    void (async () => {
      const stopped = await stopAllTurns().catch((err) => {
        console.error('[shutdown] stopping turns failed', loggable(err));
        return 0;
      });
      console.log(`[shutdown] ${signal}: stored ${stopped} running answer(s) as interrupted`);
      await getPool()
        .closeAll()
        .catch((err) => console.error('[shutdown] closing MCP servers failed', err));
      // Last: stopping the turns above released their leases and told other instances through Redis.
      await closeSharedRedis().catch((err) => console.error('[shutdown] closing Redis failed', err));
      process.exit(0);
    })();
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, shutdown);
  }
}
