// How many server processes `npm start` runs, and the back-off before a crashed one is started again.
// Pure functions (scripts/workers.test.ts); scripts/start.mjs applies them.

/** WEB_CONCURRENCY may ask for at most this many workers. */
export const MAX_WORKERS = 256;

/**
 * A shared store is configured when both DATABASE_URL is a Postgres URL and REDIS_URL is set (SPEC §7.5).
 * Only then may requests of one user land on different processes: the database, the running-turn
 * streams, Stop, rate limits and cache invalidation are shared through them. On the SQLite file alone
 * those live in the one process (lib/process-state.ts), so more than one process would split them.
 */
export function hasSharedStore(env) {
  const database = env.DATABASE_URL?.trim() ?? '';
  const redis = env.REDIS_URL?.trim() ?? '';
  return /^postgres(?:ql)?:\/\//i.test(database) && redis !== '';
}

/**
 * The number of server processes and why, from the environment and the machine's core count:
 * - with a shared store: one per core, or WEB_CONCURRENCY when set;
 * - without: one, whatever WEB_CONCURRENCY asks (a note says why a larger value is not used).
 * A WEB_CONCURRENCY that is not a whole number from 1 to MAX_WORKERS is an error (thrown, with the rule).
 * Answers `{ count, reason, note? }`.
 */
export function workerCount(env, cores) {
  const raw = env.WEB_CONCURRENCY?.trim() ?? '';
  let asked;
  if (raw !== '') {
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_WORKERS)
      throw new Error(
        `Invalid environment: WEB_CONCURRENCY: must be a whole number from 1 to ${MAX_WORKERS} (got "${raw}")`,
      );
    asked = Number(raw);
  }
  const shared = hasSharedStore(env);
  if (!shared) {
    const note =
      asked !== undefined && asked > 1
        ? `WEB_CONCURRENCY=${asked} needs DATABASE_URL=postgres://… and REDIS_URL (running answers, Stop, rate limits and caches of the SQLite setup live in one process): serving with one process`
        : undefined;
    return { count: 1, reason: 'SQLite without a shared store: one process', ...(note && { note }) };
  }
  if (asked !== undefined) return { count: asked, reason: `WEB_CONCURRENCY=${asked}` };
  const count = Math.max(1, Math.min(MAX_WORKERS, Math.floor(cores) || 1));
  return { count, reason: `Postgres and Redis configured: one worker per core (${count})` };
}

/** The first restart waits this long; each crash in a row doubles it, up to RESTART_MAX_MS. */
export const RESTART_BASE_MS = 1_000;
export const RESTART_MAX_MS = 30_000;
/** A worker that ran at least this long before it stopped starts a new series (its restart waits RESTART_BASE_MS). */
export const STABLE_AFTER_MS = 60_000;

/**
 * The wait before a crashed worker is started again and the crash count to remember, from the number of
 * crashes in a row so far and how long the worker ran. Answers `{ delayMs, crashes }`.
 */
export function restartDelay(crashesInARow, ranMs) {
  const crashes = ranMs >= STABLE_AFTER_MS ? 1 : crashesInARow + 1;
  return { delayMs: Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** (crashes - 1)), crashes };
}

/**
 * The `next start` options (`npm start -- …`) a run with workers applies, from its arguments: `-p/--port`
 * (over PORT), `-H/--hostname` and `--keepAliveTimeout` (milliseconds). Anything else (`--inspect`, a
 * directory, a flag of a newer Next) has no meaning for the primary and its workers, so it is an error
 * naming the argument, rather than silently not applied. Answers `{ port?, hostname?, keepAliveTimeout? }`.
 */
export function workerOptions(argv) {
  const options = {};
  const names = {
    '-p': 'port',
    '--port': 'port',
    '-H': 'hostname',
    '--hostname': 'hostname',
    '--keepAliveTimeout': 'keepAliveTimeout',
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') ? argv[i].split(/=(.*)/s) : [argv[i]];
    const name = names[flag];
    if (!name)
      throw new Error(
        `npm start with workers takes -p/--port, -H/--hostname and --keepAliveTimeout only (got "${argv[i]}"); set WEB_CONCURRENCY=1 to run one \`next start\` with any of its options`,
      );
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new Error(`npm start: ${flag} needs a value`);
    if (name !== 'hostname' && !/^\d+$/.test(value))
      throw new Error(`npm start: ${flag} must be a whole number (got "${value}")`);
    options[name] = value;
  }
  return options;
}
