/** Runs once when the server starts: migrate the database, then seed, import and warm the MCP servers; probe Ollama. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // A closed log pipe must not turn every log line into an uncaught exception (see log-streams.ts).
  const { survivePipeClose } = await import('@/app/_server/log-streams');
  survivePipeClose();
  // A bad environment (e.g. a malformed ENCRYPTION_KEY) stops the server with the reason.
  const { exitOnBadEnvironment } = await import('@/app/_server/startup-env');
  exitOnBadEnvironment();
  const { stampSocketAddresses } = await import('@/lib/net/client-address');
  stampSocketAddresses();
  const { hasStartupDuties, reportWorkerReady } = await import('@/app/_server/cluster-worker');
  // Several workers (scripts/start.mjs): the first one starts alone, so its migration is done before the
  // others open the database (theirs finds nothing to do); only it marks cut answers and sweeps files.
  const duties = hasStartupDuties();
  const { databaseReady } = await import('@/db/client');
  await databaseReady(); // opens and migrates the database
  const [{ markCutTurns, startCutTurnSweep }, { listenForInvalidations }, { serveTurnRequestAnswers }] =
    await Promise.all([
      import('@/app/_server/cut-turn-sweep'),
      import('@/app/_server/invalidations'),
      import('@/app/_server/turn-request-answers'),
    ]);
  // Answers cut when a process stopped (with REDIS_URL: only turns no other instance still runs).
  if (duties) await markCutTurns();
  const { handleShutdownSignals } = await import('@/app/_server/shutdown');
  handleShutdownSignals();
  // With REDIS_URL: hear other instances' stop requests, admin changes, answers to requests waiting
  // here and requests for MCP server logs and statuses and process figures from the start, and mark the turns of an instance that dies while others run on.
  startCutTurnSweep();
  listenForInvalidations();
  serveTurnRequestAnswers();
  const { serveServerLogs } = await import('@/app/_server/mcp-logs');
  serveServerLogs();
  const { serveServerStatuses } = await import('@/app/_server/mcp-status');
  serveServerStatuses();
  const { serveProcessMetrics } = await import('@/app/_server/process-metrics');
  serveProcessMetrics();
  const { startMcp } = await import('@/app/_server/mcp');
  await startMcp();
  if (duties) {
    const { sweepOrphanBlobs } = await import('@/app/_server/files');
    void sweepOrphanBlobs().catch((err) => console.warn('[files] could not sweep unused files', err));
  }
  const [{ refreshOllama }, { getEnv }] = await Promise.all([import('@/lib/ollama'), import('@/lib/env')]);
  void refreshOllama(getEnv().OLLAMA_BASE_URL);
  reportWorkerReady();
}
