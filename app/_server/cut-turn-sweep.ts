import 'server-only';
import { getDb } from '@/db/client';
import { markUnansweredTurns, unansweredConversations } from '@/db/queries/cut-turns';
import { runsHere, sharedTurnLeases } from '@/app/_server/running-turns';
import { loggable } from '@/lib/loggable';

/**
 * Startup: with REDIS_URL, hear other instances' stop requests from now on (the turn leases start
 * listening when first used) and look for turns a stopped instance left unanswered every SWEEP_MS.
 */
export function startCutTurnSweep(): void {
  if (!sharedTurnLeases()) return;
  const sweep = setInterval(() => {
    markCutTurns().catch((err) => console.error('[chat] could not look for cut turns', loggable(err)));
  }, SWEEP_MS);
  sweep.unref();
}

const CUT_REASON = 'The server stopped before this answer was finished. Retry to get an answer.';
/** With other instances: how often one of them looks for turns an instance that died left unanswered. */
const SWEEP_MS = 5_000;
/**
 * How far back that sweep looks for questions (an index makes it read only those, not every message).
 * Longer than any turn runs; an older question left unanswered was there at an earlier sweep already.
 */
const SWEEP_HORIZON_MS = 24 * 60 * 60 * 1000;

/**
 * Questions whose turn runs nowhere any more (the process running it stopped: a crash, kill -9) get an
 * answer marked interrupted, so the UI shows what happened and offers Retry. One process: at start, all
 * of them. With REDIS_URL: only conversations on which no instance holds a turn lease, one instance at a
 * time (a sweep lock), at start and every SWEEP_MS; a turn takes its lease before its question is stored
 * and gives it up after its answer is, so a running turn is never marked. Returns how many were marked.
 */
export async function markCutTurns(): Promise<number> {
  const db = getDb();
  const leases = sharedTurnLeases();
  if (!leases) return markUnansweredTurns(db, CUT_REASON);
  if (!(await leases.takeSweep(SWEEP_MS))) return 0;
  const since = new Date(Date.now() - SWEEP_HORIZON_MS);
  const continuing = await leases.continuingSince(since.getTime());
  const candidates = [...new Set([...(await unansweredConversations(db, since)), ...continuing])].filter(
    (id) => !runsHere(id),
  );
  const running = await leases.runningOf(candidates);
  const cut = candidates.filter((id) => !running.has(id));
  const lost = await markUnansweredTurns(db, CUT_REASON, cut);
  await leases.forgetContinuing(continuing.filter((id) => cut.includes(id)));
  if (lost) console.warn(`[chat] marked ${lost} unanswered turn(s) of a stopped instance as interrupted`);
  return lost;
}
