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
 *   ./node_modules/.bin/node --import tsx --conditions=react-server bench/scale-out.ts
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startNginx } from '../e2e/fixtures/nginx';
import { startPostgres } from '../e2e/fixtures/postgres-server';
import { startRedisServer } from '../e2e/fixtures/redis-server';
import {
  APP_STREAM,
  closeAgents,
  signUpBenchAdmin,
  MODEL_STREAM,
  request,
  type StreamCheck,
  type Timing,
  timedStream,
} from './chat-turn-http';
import {
  type Child,
  cpuByName,
  cpuMs,
  freePort,
  nextStartArgv,
  startChild,
  stopChild,
  waitForHttp,
} from './chat-turn-procs';
import { percentile, table } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(import.meta.dirname, 'scale-out.json');
const TEXT = { burst: '[[words:200]]', paced: '[[words:200]] [[slow:20]]' } as const;
type Mode = keyof typeof TEXT;
const PLAN: Array<{ mode: Mode; n: number; rounds: number }> = [
  { mode: 'burst', n: 1, rounds: 20 },
  { mode: 'burst', n: 10, rounds: 5 },
  { mode: 'burst', n: 50, rounds: 3 },
  { mode: 'paced', n: 1, rounds: 4 },
  { mode: 'paced', n: 10, rounds: 2 },
  { mode: 'paced', n: 50, rounds: 2 },
];
const SATURATION = { inFlight: 50, seconds: 15 };
/** The server processes whose CPU is counted during saturation (by process name). */
const SERVERS = ['next-server', 'postgres', 'redis-server', 'nginx'] as const;
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

type Row = {
  setup: string;
  mode: Mode;
  n: number;
  ttft: { p50: number; p95: number };
  total: { p50: number; p95: number };
  failed: number;
};

/** Overhead of the app over the model: the app's percentile minus the model's, over all rounds. */
function overhead(through: Timing[], direct: Timing[], key: 'ttftMs' | 'totalMs') {
  const of = (list: Timing[], p: number) =>
    percentile(
      list.filter((t) => t.ok).map((t) => t[key]),
      p,
    );
  return { p50: of(through, 50) - of(direct, 50), p95: of(through, 95) - of(direct, 95) };
}

/** Signs up the admin (the first account) and lifts the chat limits; the client for turns through `url`. */
async function prepare(url: string, fakeUrl: string) {
  const auth = await signUpBenchAdmin(url);
  let seq = 0;
  const through = (text: string, check: StreamCheck) => {
    const id = `bench-${process.pid}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
    return timedStream(
      `${url}/api/chat`,
      { id, message: { id: `${id}-m`, role: 'user', parts: [{ type: 'text', text }] } },
      auth,
      check,
    );
  };
  const direct = (body: unknown) =>
    timedStream(
      `${fakeUrl}/v1/chat/completions`,
      body,
      { authorization: 'Bearer sk-bench-key' },
      MODEL_STREAM('word200'),
    );
  // The exact body the app sends the model for each mode, from the fake's request log.
  const bodies = {} as Record<Mode, unknown>;
  for (const mode of ['burst', 'paced'] as const) {
    await request(`${fakeUrl}/requests`, 'DELETE');
    const t = await through(TEXT[mode], APP_STREAM('word200'));
    if (!t.ok) throw new Error(`capture turn failed: ${t.problem}`);
    const logged = JSON.parse((await request(`${fakeUrl}/requests`, 'GET')).body) as Array<{ body: unknown }>;
    bodies[mode] = logged[0]?.body;
  }
  return { through, direct, bodies };
}

async function measure(setup: string, url: string, fake: { url: string; pid: number }) {
  const { through, direct, bodies } = await prepare(url, fake.url);
  const words = APP_STREAM('word200');
  log(`${setup}: warming up`);
  for (let i = 0; i < 10; i++) await Promise.all([direct(bodies.burst), through(TEXT.burst, words)]);
  for (let i = 0; i < 2; i++)
    await Promise.all(
      Array.from({ length: 20 }, (_, k) => (k % 2 ? direct(bodies.burst) : through(TEXT.burst, words))),
    );
  await sleep(2000);
  const rows: Row[] = [];
  for (const { mode, n, rounds } of PLAN) {
    const d: Timing[] = [];
    const t: Timing[] = [];
    for (let r = 0; r < rounds; r++) {
      d.push(...(await Promise.all(Array.from({ length: n }, () => direct(bodies[mode])))));
      t.push(...(await Promise.all(Array.from({ length: n }, () => through(TEXT[mode], words)))));
    }
    const failed = t.filter((x) => !x.ok).length + d.filter((x) => !x.ok).length;
    if (failed)
      log(`${setup} ${mode} N=${n}: ${failed} failed, e.g. ${[...t, ...d].find((x) => !x.ok)?.problem}`);
    rows.push({
      setup,
      mode,
      n,
      ttft: overhead(t, d, 'ttftMs'),
      total: overhead(t, d, 'totalMs'),
      failed,
    });
    log(`${setup} ${mode} N=${n} done`);
  }
  // Saturation: keep SATURATION.inFlight turns running for SATURATION.seconds; turns finished per second.
  const saturate = async (one: () => Promise<Timing>) => {
    const until = performance.now() + SATURATION.seconds * 1000;
    let done = 0;
    let failed = 0;
    const cpu0 = cpuByName(SERVERS);
    const model0 = cpuMs(fake.pid);
    const self0 = process.cpuUsage();
    await Promise.all(
      Array.from({ length: SATURATION.inFlight }, async () => {
        while (performance.now() < until) {
          const r = await one();
          if (r.ok) done++;
          else failed++;
        }
      }),
    );
    const cpu1 = cpuByName(SERVERS);
    const model = cpuMs(fake.pid) - model0;
    const self = process.cpuUsage(self0);
    // CPU per finished turn, by kind of process; the load generator is this process.
    const cpuPerTurn = Object.fromEntries([
      ...SERVERS.map((n) => [n, ((cpu1[n] ?? 0) - (cpu0[n] ?? 0)) / Math.max(1, done)]),
      ['fake model', model / Math.max(1, done)],
      ['load generator', (self.user + self.system) / 1000 / Math.max(1, done)],
    ]) as Record<string, number>;
    return { perSecond: done / SATURATION.seconds, failed, cpuPerTurn };
  };
  const model = await saturate(() => direct(bodies.burst));
  const app = await saturate(() => through(TEXT.burst, words));
  log(
    `${setup}: ${app.perSecond.toFixed(1)} turns/s through the app, ${model.perSecond.toFixed(1)} straight`,
  );
  return {
    rows,
    throughput: { app: app.perSecond, model: model.perSecond, failed: app.failed },
    cpuPerTurn: app.cpuPerTurn,
  };
}

const children: Child[] = [];
async function stopAll() {
  for (const c of children.splice(0).reverse()) await stopChild(c);
}

async function main() {
  if (!existsSync(path.join(ROOT, '.next/BUILD_ID')))
    throw new Error('No production build (.next/BUILD_ID): run `next build` first.');
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  delete env.NODE_OPTIONS;
  for (const key of ['AUTH_SECRET', 'PORT', 'MCP_SERVERS_FILE', 'DATABASE_URL', 'REDIS_URL']) delete env[key];
  const fakePort = await freePort();
  const fakeUrl = `http://127.0.0.1:${fakePort}`;
  const fake = startChild(
    'fake model',
    [process.execPath, 'e2e/fixtures/fake-openai.mjs'],
    { ...env, FAKE_OPENAI_PORT: String(fakePort) },
    ROOT,
  );
  await waitForHttp(`${fakeUrl}/health`, fake, 15_000);
  const common = {
    OPENAI_BASE_URL: `${fakeUrl}/v1`,
    OPENAI_API_KEY: 'sk-bench-key',
    CHAT_MODEL: 'fake-model',
  };
  const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
  const dirs: string[] = [];
  try {
    // (i) One process, SQLite.
    {
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
      results.sqlite = await measure('1 process, SQLite', url, { url: fakeUrl, pid: fake.proc.pid! });
      await stopAll();
    }
    // (ii) Two instances, Postgres + Redis, nginx round robin.
    {
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
        results.shared = await measure('2 instances, Postgres + Redis', lb.url, {
          url: fakeUrl,
          pid: fake.proc.pid!,
        });
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
