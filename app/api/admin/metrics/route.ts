import { statementCount } from '@/db/client';
import { runningTurnCount, turnBufferBytes } from '@/app/_server/running-turns';
import { requireAdmin } from '@/app/_server/session';
import { firstTokenGate } from '@/lib/chat/first-token-gate';
import { route } from '@/lib/http';
import { getPool } from '@/lib/mcp/pool';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Process figures for operators and benchmarks: SQL statements run, memory, uptime, MCP status. */
export const GET = route(async (req) => {
  await requireAdmin(req);
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return Response.json({
    sqlStatements: statementCount(),
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    uptimeS: Math.round(process.uptime()),
    runningTurns: runningTurnCount(),
    turnBufferBytes: turnBufferBytes(),
    firstToken: firstTokenGate().figures(),
    mcp: getPool().statuses(),
  });
});
