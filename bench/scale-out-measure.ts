/**
 * The scale-out benchmark's plan and measurement (bench/scale-out.ts runs it against each setup): the
 * app's overhead over the fake model per (mode, N), and throughput and CPU per turn at saturation.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  APP_STREAM,
  signUpBenchAdmin,
  MODEL_STREAM,
  request,
  type StreamCheck,
  type Timing,
  timedStream,
} from './chat-turn-http';
import { cpuByName, cpuMs } from './chat-turn-procs';
import { percentile } from './stats';

const TEXT = { burst: '[[words:200]]', paced: '[[words:200]] [[slow:20]]' } as const;
type Mode = keyof typeof TEXT;
export type Plan = Array<{ mode: Mode; n: number; rounds: number }>;
export const PLAN: Plan = [
  { mode: 'burst', n: 1, rounds: 20 },
  { mode: 'burst', n: 10, rounds: 5 },
  { mode: 'burst', n: 50, rounds: 3 },
  { mode: 'paced', n: 1, rounds: 4 },
  { mode: 'paced', n: 10, rounds: 2 },
  { mode: 'paced', n: 50, rounds: 2 },
];
export const SATURATION = { inFlight: 50, seconds: 15 };
/** The pause after each round: each burst meets a quiet server, as the one straight to the model does. */
const QUIET_MS = Number(process.env.QUIET_MS ?? 1000);
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

/** A plan from `mode:n:rounds,…` (e.g. `paced:50:4`); throws on anything else. */
export function parsePlan(text: string): Plan {
  return text.split(',').map((item) => {
    const [mode, n, rounds] = item.split(':');
    if (!(mode === 'burst' || mode === 'paced') || !(Number(n) >= 1) || !(Number(rounds) >= 1))
      throw new Error(`not a plan item (mode:n:rounds, mode burst or paced): ${item}`);
    return { mode, n: Number(n), rounds: Number(rounds) };
  });
}

export async function measure(
  setup: string,
  url: string,
  fake: { url: string; pid: number },
  plan: Plan = PLAN,
  saturation = true,
) {
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
  for (const { mode, n, rounds } of plan) {
    const d: Timing[] = [];
    const t: Timing[] = [];
    for (let r = 0; r < rounds; r++) {
      d.push(...(await Promise.all(Array.from({ length: n }, () => direct(bodies[mode])))));
      t.push(...(await Promise.all(Array.from({ length: n }, () => through(TEXT[mode], words)))));
      // What a round leaves running (its new conversations' title requests) ends before the next starts.
      await sleep(QUIET_MS);
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
  if (!saturation) return { rows, throughput: undefined, cpuPerTurn: {} as Record<string, number> };
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
