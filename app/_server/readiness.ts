import 'server-only';
import { sql } from 'drizzle-orm';
import { isDraining } from '@/app/_server/shutdown';
import { databaseReady } from '@/db/client';
import { rawRows } from '@/db/run';
import { processState } from '@/lib/process-state';
import { hasSharedStore, sharedRedis } from '@/lib/shared/redis';

/** One check's outcome; never an error's text (it could carry a host name or a password from a URL). */
export type CheckOutcome = 'ok' | 'failed' | 'timeout' | 'draining';
export type Readiness = { ok: boolean; checks: Record<string, CheckOutcome> };

/** A check that has not answered in this long counts as failed (a probe must not hang). */
export const CHECK_TIMEOUT_MS = 2_000;

const state = () => processState('readiness', () => ({ failing: new Set<string>() }));

async function within(check: () => unknown, timeoutMs: number): Promise<CheckOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(check)
        .then((): CheckOutcome => 'ok'),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs one check; a failure is logged (its reason, server-side only) when it starts, not on every probe. */
async function run(name: string, check: () => unknown, timeoutMs: number): Promise<CheckOutcome> {
  const { failing } = state();
  const outcome = await within(check, timeoutMs).catch((err: unknown) => {
    if (!failing.has(name))
      console.warn(`[ready] ${name} check failed:`, err instanceof Error ? err.message : err);
    return 'failed' as const;
  });
  if (outcome === 'ok') {
    if (failing.delete(name)) console.log(`[ready] ${name} answers again`);
  } else {
    if (outcome === 'timeout' && !failing.has(name)) console.warn(`[ready] ${name} check timed out`);
    failing.add(name);
  }
  return outcome;
}

/** The database answers a trivial query. */
async function pingDatabase(): Promise<void> {
  // Migrated and answering: a database still migrating (or whose migration failed) is not ready.
  const [row] = await rawRows<{ ok: number }>(await databaseReady(), sql`select 1 as ok`);
  if (Number(row?.ok) !== 1) throw new Error('the database answered select 1 with something else');
}

/** The shared store answers PING on this process's own connection (an instance that cannot reach it must get no requests). */
async function pingRedis(): Promise<void> {
  const redis = sharedRedis();
  if (!redis) throw new Error('REDIS_URL is set but there is no Redis connection');
  if ((await redis.command.ping()) !== 'PONG') throw new Error('Redis answered PING with something else');
}

/**
 * Readiness for load balancers and orchestrators (GET /api/ready): the process is not stopping, the
 * database answers, and Redis pings when REDIS_URL is set. `ok` only when every check is `ok`.
 */
export async function checkReadiness(timeoutMs = CHECK_TIMEOUT_MS): Promise<Readiness> {
  const checks: Record<string, CheckOutcome> = { process: isDraining() ? 'draining' : 'ok' };
  checks.database = await run('database', pingDatabase, timeoutMs);
  if (hasSharedStore()) checks.redis = await run('redis', pingRedis, timeoutMs);
  return { ok: Object.values(checks).every((c) => c === 'ok'), checks };
}
