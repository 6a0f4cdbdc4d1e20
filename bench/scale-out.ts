/**
 * Scale-out benchmark (issue 19): what a chat turn costs beyond the model, (i) on one process with
 * SQLite and (ii) on two instances sharing a real Postgres and Redis behind a real nginx in round robin,
 * each measured beside the fake model straight (the same request bodies) in the same run.
 *
 *  - burst (200 words at once) and paced (200 words, 20 ms apart) turns, N = 1, 10, 50 at a time:
 *    time to first token (p50/p95) and total time, through the app minus straight to the model;
 *  - throughput at saturation: 50 turns kept in flight for 15 s (closed loop), turns per second, and the
 *    ratio of (ii) to (i); the CPU per turn of each kind of process meanwhile (app, Postgres, Redis,
 *    nginx, the fake model, this load generator), and the ratio that gives with each instance on cores of
 *    its own (on a 2-core machine everything shares the same two).
 * Prints one table and writes bench/scale-out.json. Needs a production build (.next/BUILD_ID) and Debian's
 * postgresql-15, redis-server and nginx (as the e2e suite does).
 *
 *   ./node_modules/.bin/node --import tsx --conditions=react-server bench/scale-out.ts [SETUPS] [PLAN]
 *
 * SETUPS: `sqlite`, `shared` or `both` (the default); PLAN: `mode:n:rounds,…` (e.g. `paced:50:4`) measures
 * only those, without the saturation run, and writes no JSON (the default: the whole plan and saturation).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNginx } from '../e2e/fixtures/nginx';
import { startPostgres } from '../e2e/fixtures/postgres-server';
import { startRedisServer } from '../e2e/fixtures/redis-server';
import { closeAgents } from './chat-turn-http';
import {
  type Child,
  freePort,
  nextStartArgv,
  startChild,
  startFakeModel,
  stopChild,
  waitForHttp,
} from './chat-turn-procs';
import { measure, PLAN, parsePlan, SATURATION } from './scale-out-measure';
import { table } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(import.meta.dirname, 'scale-out.json');

const children: Child[] = [];
async function stopAll() {
  for (const c of children.splice(0).reverse()) await stopChild(c);
}

const SETUPS = process.argv[2] ?? 'both';
const CHOSEN_PLAN = process.argv[3] ? parsePlan(process.argv[3]) : PLAN;
const SATURATE = !process.argv[3];

async function main() {
  if (!['sqlite', 'shared', 'both'].includes(SETUPS))
    throw new Error(`SETUPS: sqlite, shared or both, not ${SETUPS}`);
  if (!existsSync(path.join(ROOT, '.next/BUILD_ID')))
    throw new Error('No production build (.next/BUILD_ID): run `next build` first.');
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  delete env.NODE_OPTIONS;
  for (const key of ['AUTH_SECRET', 'PORT', 'MCP_SERVERS_FILE', 'DATABASE_URL', 'REDIS_URL']) delete env[key];
  const { fake, url: fakeUrl } = await startFakeModel(ROOT, env);
  const common = {
    OPENAI_BASE_URL: `${fakeUrl}/v1`,
    OPENAI_API_KEY: 'sk-bench-key',
    CHAT_MODEL: 'fake-model',
  };
  const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
  const dirs: string[] = [];
  try {
    // (i) One process, SQLite.
    if (SETUPS !== 'shared') {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'scale-out-sqlite-'));
      dirs.push(dir);
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const app = startChild(
        'next start (SQLite)',
        nextStartArgv(port),
        { ...env, ...common, DATABASE_PATH: `${dir}/app.db`, APP_URL: url },
        ROOT,
      );
      children.push(app);
      await waitForHttp(`${url}/api/health`, app, 60_000);
      results.sqlite = await measure(
        '1 process, SQLite',
        url,
        { url: fakeUrl, pid: fake.proc.pid! },
        CHOSEN_PLAN,
        SATURATE,
      );
      await stopAll();
    }
    // (ii) Two instances, Postgres + Redis, nginx round robin.
    if (SETUPS !== 'sqlite') {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'scale-out-shared-'));
      dirs.push(dir);
      const [pg, redis] = await Promise.all([startPostgres(), startRedisServer()]);
      const ports = [await freePort(), await freePort()];
      const lb = await startNginx(ports, { roundRobin: true });
      try {
        const shared = {
          ...common,
          DATABASE_URL: pg.url,
          REDIS_URL: redis.url,
          DATABASE_PATH: `${dir}/app.db`,
          APP_URL: lb.url,
          AUTH_SECRET: randomBytes(32).toString('base64url'),
          ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        };
        for (const [i, port] of ports.entries()) {
          const app = startChild(
            `next start #${i + 1} (Postgres + Redis)`,
            nextStartArgv(port),
            { ...env, ...shared },
            ROOT,
          );
          children.push(app);
          await waitForHttp(`http://127.0.0.1:${port}/api/ready`, app, 90_000);
        }
        results.shared = await measure(
          '2 instances, Postgres + Redis',
          lb.url,
          { url: fakeUrl, pid: fake.proc.pid! },
          CHOSEN_PLAN,
          SATURATE,
        );
      } finally {
        await stopAll();
        await Promise.all([lb.stop(), redis.stop(), pg.stop()]);
      }
    }
  } finally {
    await stopChild(fake);
    closeAgents();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }

  const f = (x: number) => x.toFixed(1);
  console.log('\nOverhead over the fake model straight (ms): time to first token and total time, p50 / p95');
  console.log(
    table(
      ['setup', 'mode', 'N', 'TTFT p50', 'TTFT p95', 'total p50', 'total p95', 'failed'],
      [...(results.sqlite?.rows ?? []), ...(results.shared?.rows ?? [])].map((r) => [
        r.setup,
        r.mode,
        String(r.n),
        f(r.ttft.p50),
        f(r.ttft.p95),
        f(r.total.p50),
        f(r.total.p95),
        String(r.failed),
      ]),
      'text',
    ),
  );
  const one = results.sqlite?.throughput;
  const two = results.shared?.throughput;
  if (!SATURATE) return;
  console.log(
    `\nThroughput at saturation (${SATURATION.inFlight} burst turns in flight, ${SATURATION.seconds} s): ` +
      `1 process ${f(one?.app ?? 0)} turns/s (model straight ${f(one?.model ?? 0)}), ` +
      `2 instances ${f(two?.app ?? 0)} turns/s (model straight ${f(two?.model ?? 0)}); ratio ${((two?.app ?? 0) / (one?.app || 1)).toFixed(2)}×`,
  );
  // Where the CPU of a turn goes at saturation, and what the ratio would be on cores of their own: an
  // instance is bound by its own event loop, so with Postgres, Redis, the balancer and the clients on
  // other cores, two instances serve what one process does times 2 × (its app CPU per turn) / (theirs).
  const perTurn = (r?: { cpuPerTurn: Record<string, number> }) =>
    Object.entries(r?.cpuPerTurn ?? {})
      .filter(([, ms]) => ms > 0.005)
      .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
      .join(', ');
  console.log(`\nCPU per turn at saturation (ms): 1 process: ${perTurn(results.sqlite)}`);
  console.log(`  2 instances: ${perTurn(results.shared)}`);
  const appMs = (r?: { cpuPerTurn: Record<string, number> }) => r?.cpuPerTurn['next-server'] ?? Number.NaN;
  const ratio = (2 * appMs(results.sqlite)) / appMs(results.shared);
  console.log(
    `Projected ratio with each instance on cores of its own (not measured on this machine): ${ratio.toFixed(2)}× ` +
      `(≈ ${f((one?.app ?? 0) * ratio)} turns/s), with ${f(results.shared?.cpuPerTurn.postgres ?? 0)} ms of ` +
      `Postgres and ${f(results.shared?.cpuPerTurn['redis-server'] ?? 0)} ms of Redis CPU per turn on their own cores`,
  );
  writeFileSync(OUT, `${JSON.stringify({ cores: os.availableParallelism(), ...results }, null, 2)}\n`);
  console.log(`wrote ${path.relative(ROOT, OUT)}`);
}

main().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
