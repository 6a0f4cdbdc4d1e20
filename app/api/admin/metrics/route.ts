import { processMetrics } from '@/app/_server/process-metrics';
import { requireAdmin } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Figures for operators and benchmarks: this process's SQL statements run, memory, uptime, running
 * answers and MCP status, and every server process's running answers (`processes`, by instance).
 */
export const GET = route(async (req) => {
  await requireAdmin(req);
  return Response.json(await processMetrics());
});
