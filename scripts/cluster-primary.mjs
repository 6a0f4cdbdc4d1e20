// The cluster primary of `npm start` with several workers (scripts/start.mjs; tested with a stand-in
// worker by scripts/cluster-primary.test.ts).
import cluster from 'node:cluster';
import net from 'node:net';
import {
  CONNECTION_MESSAGE,
  headLength,
  MAX_HEAD_BYTES,
  mayBeHead,
  ownerOf,
  sessionOfHead,
} from './sticky.mjs';
import { restartDelay } from './workers.mjs';

/** The primary's wait for its workers to finish their answers after SIGTERM (each stops itself within 10 s). */
const DRAIN_DEADLINE_MS = 12_000;
/** A connection that has not sent a whole request head by then is closed (as Node's headersTimeout would). */
const HEAD_TIMEOUT_MS = 60_000;

/**
 * node:cluster: every worker runs `exec` (scripts/worker.mjs, the Next.js server). The primary listens on
 * the port and hands each connection to a worker by the session cookie of its first request
 * (scripts/sticky.mjs), so one session's requests all reach the worker holding its per-user MCP
 * connections; a connection without a session goes to the next worker in turn, and one whose owner is
 * not running (restarting) to the next running one. Worker 1 starts alone with the start-up duties (MCP_CHAT_BOOT_DUTIES=1:
 * migrate, mark answers cut by the last stop, sweep unused files); it reports ready when instrumentation.ts
 * is done, then the others start without them. A worker that stops is started again after a back-off; a
 * restarted worker never has the duties (the others' running answers are not "cut by a stop"). SIGTERM
 * or SIGINT reaches every worker, which stops its running answers and stores them; then the primary exits.
 */
export function serveWithWorkers({ count, exec, args, execArgv, port, host }) {
  cluster.setupPrimary({ exec, args, execArgv });
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
  let turn = 0;

  /** The worker for a session (its owner, else the next running one), or for no session the next in turn. */
  const workerFor = (session) => {
    const first = session === undefined ? turn++ % count : ownerOf(session, count);
    for (let i = 0; i < count; i++) {
      const slot = slots[(first + i) % count];
      if (slot.ready && slot.worker?.isConnected()) return slot.worker;
    }
    return undefined;
  };

  /** Reads the head of the connection's first request, then hands the socket and those bytes to a worker. */
  const route = (socket) => {
    const chunks = [];
    let size = 0;
    const timer = setTimeout(() => socket.destroy(), HEAD_TIMEOUT_MS);
    const onData = (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
      const bytes = chunks.length === 1 ? chunk : Buffer.concat(chunks);
      const end = headLength(bytes);
      if (end < 0 && size < MAX_HEAD_BYTES && mayBeHead(bytes)) return;
      socket.off('data', onData);
      clearTimeout(timer);
      // Nothing more is read here: what follows (a body, the next requests) is the worker's to read.
      socket._handle?.readStop();
      const worker = workerFor(end < 0 ? undefined : sessionOfHead(bytes.subarray(0, end)));
      if (!worker) {
        socket.end(
          'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n',
        );
        return;
      }
      worker.send({ type: CONNECTION_MESSAGE, head: bytes.toString('base64') }, socket, (err) => {
        if (err) socket.destroy();
      });
    };
    socket.on('data', onData);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => clearTimeout(timer));
  };
  const server = net.createServer(route);
  server.on('error', (err) => {
    console.error(`[start] cannot listen on port ${port}: ${err.message}`);
    exitCode = 1;
    stop('SIGTERM');
  });

  const start = (slot, bootDuties) => {
    slot.startedAt = Date.now();
    slot.ready = false;
    const worker = cluster.fork({
      MCP_CHAT_WORKER_ID: String(slot.id),
      MCP_CHAT_WORKERS: String(count),
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
      server.listen(Number(port), host);
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
    server.close();
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
