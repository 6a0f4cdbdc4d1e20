// `npm start`: build when the build is missing or older than the sources, then serve: one process, or
// with a shared store (DATABASE_URL=postgres://… and REDIS_URL) one worker per core (WEB_CONCURRENCY
// overrides; scripts/workers.mjs decides).
// The database is created and migrated by the server itself when it starts (instrumentation.ts). With
// workers, the first one starts alone and does that (and the other start-up duties); the others start
// once it is ready, so migrations run once, never in two processes at the same time.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism, hostname } from 'node:os';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';
import { serveWithWorkers } from './cluster-primary.mjs';
import { workerCount, workerOptions } from './workers.mjs';

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

// With workers, the `next start` options that carry over (checked before a build, which takes minutes):
// the primary listens on the port and host; the workers build their URLs from them and apply the
// keep-alive timeout. Any other is refused (workerOptions).
let options = {};
try {
  if (plan.count > 1) options = workerOptions(process.argv.slice(2));
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}

// The instance every server process of this start belongs to (the admin metrics name it per process).
process.env.MCP_CHAT_INSTANCE ||= `${hostname()}:${process.pid}`;

const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
if (builtAt < sourcesAt || process.env.FORCE_BUILD === '1') {
  console.log(builtAt ? 'Sources changed since the last build: building…' : 'No build yet: building…');
  const build = spawnSync(process.execPath, [next, 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = options.port ?? (process.env.PORT || '3000');
const nextArgs = ['start', '-p', port, ...process.argv.slice(2)];
if (plan.count === 1) serveOneProcess();
else {
  console.log(`[start] ${plan.reason}: starting ${plan.count} workers on port ${port}`);
  const { hostname: host, keepAliveTimeout } = options;
  serveWithWorkers({
    count: plan.count,
    exec: join(root, 'scripts', 'worker.mjs'),
    args: [
      '-p',
      port,
      ...(host ? ['-H', host] : []),
      ...(keepAliveTimeout ? ['--keepAliveTimeout', keepAliveTimeout] : []),
    ],
    execArgv: SERVER_NODE_FLAGS,
    port,
    host,
  });
}

function serveOneProcess() {
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, next, ...nextArgs], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}
