import { Worker } from 'node:worker_threads';

/**
 * SQLite's WAL checkpoint, moved off the event loop.
 *
 * By default the connection that commits the 1000th page of the write-ahead log copies the log back into
 * the database file and syncs it, inside that commit: on the server's one thread, every ~40 chat turns
 * stall for several ms (p95 of storing a question and answer 3.7 ms with it, ~1 ms without). Here a worker
 * thread with its own connection runs PASSIVE checkpoints (they never block a writer or a reader), and the
 * main connection's own automatic checkpoint stays only as a safety net, far above what the worker lets
 * the log reach. If the worker cannot run (the driver fails to load, the file is gone) the main
 * connection gets its usual threshold back, so the log never grows without bound.
 */

/** The main connection checkpoints by itself only past this many log pages (~40 MB) while the worker runs. */
export const SAFETY_NET_PAGES = 10_000;
/** SQLite's default, restored if the worker stops on its own. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

export type CheckpointerOptions = {
  /** Between two checkpoints when the last one found little to copy. */
  idleIntervalMs?: number;
  /** Between two checkpoints when the last one copied at least `busyPages`. */
  busyIntervalMs?: number;
  busyPages?: number;
  /** The worker ends after this long with nothing written; the next write starts it again. */
  idleExitMs?: number;
};

export type Checkpointer = {
  /** A write is being made: starts the worker unless it runs (or could not run). Cheap when it runs. */
  wake: () => void;
  /** Checkpoints that copied new pages, the pages, and whether the worker runs (benchmarks and tests). */
  stats: () => { checkpoints: number; pages: number; running: boolean; starts: number };
  /** Closes the worker's connection and ends it; resolves when it has exited. */
  stop: () => Promise<void>;
};

/**
 * The worker is plain CommonJS evaluated from a string, so no bundler has to find a file for it; it loads
 * the same native driver as the main thread, resolved from the working directory (npm scripts run at the
 * repo root, as the migrations folder also assumes).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const db = new Database(workerData.path, { fileMustExist: true });
let timer;
let last = { log: -1, checkpointed: -1 };
let lastActive = Date.now();
// Ends the thread with exit code 0: nothing is left to keep it alive.
function finish() {
  clearTimeout(timer);
  db.close();
  parentPort.close();
}
function tick() {
  let copied = 0;
  try {
    // log = pages in the log, checkpointed = pages copied back; a write that finds them equal restarts the log.
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    const fresh = row.log !== last.log || row.checkpointed !== last.checkpointed;
    if (fresh && row.log > 0) {
      copied = row.checkpointed;
      lastActive = Date.now();
      parentPort.postMessage({ type: 'checkpoint', pages: row.checkpointed });
    }
    last = row;
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: String((err && err.message) || err) });
  }
  if (Date.now() - lastActive >= workerData.idleExitMs) return finish();
  timer = setTimeout(tick, copied >= workerData.busyPages ? workerData.busyIntervalMs : workerData.idleIntervalMs);
}
parentPort.on('message', (message) => {
  if (message === 'stop') finish();
});
tick();
`;

/**
 * The checkpointer of the database at `path`, whose main connection `setAutocheckpoint` sets. The worker
 * starts at the first write (`wake`), ends after `idleExitMs` with nothing written (an idle server keeps
 * no extra thread: ~12 MB; 5 s, as the server gives memory back 5 s after its last answer, lib/idle-memory.ts;
 * a start costs the main thread ~1 ms), and never keeps the process alive.
 */
export function createCheckpointer(
  path: string,
  setAutocheckpoint: (pages: number) => void,
  options: CheckpointerOptions = {},
): Checkpointer {
  const { idleIntervalMs = 250, busyIntervalMs = 50, busyPages = 100, idleExitMs = 5_000 } = options;
  let checkpoints = 0;
  let pages = 0;
  let starts = 0;
  let worker: Worker | null = null;
  let exited: Promise<void> = Promise.resolve();
  // Set once the worker failed: the main connection checkpoints by itself from then on.
  let failed = false;
  let stopped = false;
  // A failing checkpoint is said once, not at every tick, until one succeeds again.
  let failing = false;

  const start = () => {
    starts++;
    const current = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, idleIntervalMs, busyIntervalMs, busyPages, idleExitMs },
      // A small heap: the worker only calls into SQLite.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    worker = current;
    setAutocheckpoint(SAFETY_NET_PAGES);
    current.on('message', (message: { type: string; pages?: number; message?: string }) => {
      if (message.type === 'checkpoint') {
        checkpoints++;
        pages += message.pages ?? 0;
        failing = false;
      } else if (message.type === 'error' && !failing) {
        failing = true;
        console.error(`[db] WAL checkpoint failed: ${message.message}`);
      }
    });
    current.on('error', (err) => {
      failed = true;
      console.error(
        `[db] the WAL checkpointer stopped (the main connection checkpoints again): ${err.message}`,
      );
    });
    // After the listeners: adding a 'message' listener refs the worker again.
    current.unref();
    exited = new Promise<void>((resolve) => {
      current.once('exit', (code) => {
        if (worker === current) worker = null;
        // 0: it ended itself (idle, or stopped); anything else: it failed, and is not started again.
        if (code !== 0) failed = true;
        // Without the worker the main connection checkpoints at SQLite's usual threshold.
        setAutocheckpoint(DEFAULT_AUTOCHECKPOINT_PAGES);
        resolve();
      });
    });
  };

  return {
    wake: () => {
      if (worker || failed || stopped) return;
      start();
    },
    stats: () => ({ checkpoints, pages, running: worker !== null, starts }),
    stop: async () => {
      stopped = true;
      const current = worker;
      if (!current) return;
      current.postMessage('stop');
      const deadline = setTimeout(() => void current.terminate(), 2000);
      await exited;
      clearTimeout(deadline);
    },
  };
}
