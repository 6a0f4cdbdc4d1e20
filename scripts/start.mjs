// `npm start`: build when the build is missing or older than the sources, then serve: one process, or
// with a shared store (DATABASE_URL=postgres://… and REDIS_URL) one worker per core (WEB_CONCURRENCY
// overrides; scripts/workers.mjs decides).
// The database is created and migrated by the server itself when it starts (instrumentation.ts). With
// workers, the first one starts alone and does that (and the other start-up duties); the others start
// once it is ready, so migrations run once, never in two processes at the same time.
import { spawn, spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';
import { restartDelay, workerCount } from './workers.mjs';

const root = process.cwd();
const next = join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const buildId = join(root, '.next', 'BUILD_ID');
const SOURCES = [
  'app',
  'lib',
  'db',
  'public',
  'i18n',
  'messages',
  'instrumentation.ts',
  'next.config.ts',
  'package.json',
  'postcss.config.mjs',
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

let plan;
try {
  plan = workerCount(process.env, availableParallelism());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
if (plan.note) console.warn(`[start] ${plan.note}`);

const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
if (builtAt < sourcesAt || process.env.FORCE_BUILD === '1') {
  console.log(builtAt ? 'Sources changed since the last build: building…' : 'No build yet: building…');
  const build = spawnSync(process.execPath, [next, 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = process.env.PORT || '3000';
const nextArgs = ['start', '-p', port, ...process.argv.slice(2)];
if (plan.count === 1) serveOneProcess();
else serveWithWorkers(plan.count);

function serveOneProcess() {
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, next, ...nextArgs], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

/** The primary's wait for its workers to finish their answers after SIGTERM (each stops itself within 10 s). */
const DRAIN_DEADLINE_MS = 12_000;

/**
 * node:cluster: every worker runs `next start` on the same port (the primary holds the socket and hands
 * connections round-robin). Worker 1 starts alone with the start-up duties (MCP_CHAT_BOOT_DUTIES=1:
 * migrate, mark answers cut by the last stop, sweep unused files); it reports ready when instrumentation.ts
 * is done, then the others start without them. A worker that stops is started again after a back-off; a
 * restarted worker never has the duties (the others' running answers are not "cut by a stop"). SIGTERM
 * or SIGINT reaches every worker, which stops its running answers and stores them; then the primary exits.
 */
function serveWithWorkers(count) {
  console.log(`[start] ${plan.reason}: starting ${count} workers on port ${port}`);
  cluster.setupPrimary({ exec: next, args: nextArgs, execArgv: SERVER_NODE_FLAGS });
  const slots = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    worker: undefined,
    startedAt: 0,
    crashes: 0,
    timer: undefined,
    ready: false,
  }));
  let booted = false;
  let announced = false;
  let stopping = false;
  let exitCode = 0;

  const start = (slot, bootDuties) => {
    slot.startedAt = Date.now();
    slot.ready = false;
    const worker = cluster.fork({
      MCP_CHAT_WORKER_ID: String(slot.id),
      MCP_CHAT_BOOT_DUTIES: bootDuties ? '1' : '0',
    });
    slot.worker = worker;
    console.log(
      `[start] worker ${slot.id}/${count} started (pid ${worker.process.pid})${bootDuties ? ', migrating the database before the others start' : ''}`,
    );
    worker.on('message', (message) => {
      if (message?.type === 'mcp-chat:ready') ready(slot);
    });
    worker.on('exit', (code, signal) => exited(slot, worker, code, signal));
  };

  const ready = (slot) => {
    slot.ready = true;
    if (!booted) {
      booted = true;
      for (const other of slots.slice(1)) start(other, false);
    }
    if (!announced && slots.every((s) => s.ready)) {
      announced = true;
      console.log(`[start] all ${count} workers ready on port ${port}`);
    }
  };

  const exited = (slot, worker, code, signal) => {
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    slot.ready = false;
    if (stopping) {
      if (code) exitCode = 1;
      if (slots.every((s) => !s.worker)) process.exit(exitCode);
      return;
    }
    if (!booted) {
      // Worker 1 could not start (a bad environment, a failed migration): the others would fail alike.
      console.error(`[start] worker 1 stopped before it was ready (${signal ?? `exit code ${code}`})`);
      process.exit(code || 1);
    }
    const { delayMs, crashes } = restartDelay(slot.crashes, Date.now() - slot.startedAt);
    slot.crashes = crashes;
    console.error(
      `[start] worker ${slot.id} stopped (${signal ?? `exit code ${code}`}); starting it again in ${delayMs / 1000} s`,
    );
    slot.timer = setTimeout(() => {
      slot.timer = undefined;
      start(slot, false);
    }, delayMs);
  };

  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    for (const slot of slots) clearTimeout(slot.timer);
    const running = slots.filter((s) => s.worker);
    if (running.length === 0) process.exit(0);
    for (const slot of running) slot.worker.process.kill(signal);
    setTimeout(() => {
      console.error('[start] workers still running after the drain deadline: killing them');
      for (const slot of slots) slot.worker?.process.kill('SIGKILL');
      process.exit(1);
    }, DRAIN_DEADLINE_MS);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));

  start(slots[0], true);
}
