import 'server-only';
import { randomUUID } from 'node:crypto';
import { desc, eq, gte } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { toolCalls } from '@/db/tables';
import { storableText } from '@/lib/stored-text';

export type NewToolCall = Omit<typeof toolCalls.$inferInsert, 'id' | 'createdAt'>;

/** Logs a call; its server's words (an error, a tool's name) are kept with U+FFFD for a NUL (lib/stored-text.ts). */
export async function recordToolCall(db: Db, call: NewToolCall): Promise<void> {
  await db.insert(toolCalls).values({
    id: randomUUID(),
    ...call,
    tool: storableText(call.tool),
    errorKind: storableText(call.errorKind),
    error: storableText(call.error),
  });
}

export type ServerStats = {
  calls24h: number;
  errors24h: number;
  errorRate: number;
  p50Ms: number | null;
  p95Ms: number | null;
};

function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

/** Calls, error rate and latency percentiles per server over the last 24 hours. */
export async function serverStats(db: Db): Promise<Map<string, ServerStats>> {
  const since = new Date(Date.now() - 24 * 3600_000);
  const rows = await db
    .select({ server: toolCalls.server, durationMs: toolCalls.durationMs, outcome: toolCalls.outcome })
    .from(toolCalls)
    .where(gte(toolCalls.createdAt, since));
  const byServer = new Map<string, { durations: number[]; errors: number }>();
  for (const r of rows) {
    const s = byServer.get(r.server) ?? { durations: [], errors: 0 };
    s.durations.push(r.durationMs);
    if (r.outcome === 'error') s.errors++;
    byServer.set(r.server, s);
  }
  const out = new Map<string, ServerStats>();
  for (const [server, s] of byServer) {
    const sorted = s.durations.sort((a, b) => a - b);
    out.set(server, {
      calls24h: sorted.length,
      errors24h: s.errors,
      errorRate: s.errors / sorted.length,
      p50Ms: percentile(sorted, 50),
      p95Ms: percentile(sorted, 95),
    });
  }
  return out;
}

export async function recentCalls(db: Db, server: string, limit = 50) {
  const rows = await db
    .select({
      id: toolCalls.id,
      at: toolCalls.createdAt,
      tool: toolCalls.tool,
      durationMs: toolCalls.durationMs,
      outcome: toolCalls.outcome,
      errorKind: toolCalls.errorKind,
      error: toolCalls.error,
    })
    .from(toolCalls)
    .where(eq(toolCalls.server, server))
    .orderBy(desc(toolCalls.createdAt))
    .limit(limit);
  return rows.map((c) => ({ ...c, at: c.at.toISOString() }));
}
