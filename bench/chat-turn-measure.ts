/**
 * The chat-turn benchmark's plan and measurement steps (bench/chat-turn.ts runs them in order): turns
 * straight to the model and through the app, the exact bodies the app sends the model, warm-up, SQL
 * statements per turn, the latency phases with CPU and RSS, RSS after the load, and one warm tool call.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  APP_STREAM,
  MODEL_STREAM,
  pageScripts,
  request,
  type signUpBenchAdmin,
  type StreamCheck,
  type Timing,
  timedStream,
} from './chat-turn-http';
import { cpuMs, rssMb, sampleRss } from './chat-turn-procs';
import { type Mode, overheads, type Phase, type ToolPhase } from './chat-turn-report';

/** Rounds per (mode, N). Paced turns take ~4.3 s each, so paced N=1 uses fewer sequential turns. */
export const PLAN: Array<{ mode: Mode; n: number; rounds: number }> = [
  { mode: 'burst', n: 1, rounds: 30 },
  { mode: 'paced', n: 1, rounds: 10 },
  { mode: 'burst', n: 10, rounds: 5 },
  { mode: 'paced', n: 10, rounds: 3 },
  { mode: 'burst', n: 50, rounds: 3 },
  { mode: 'paced', n: 50, rounds: 3 },
];
const TOOL_TURNS = 30;
const SQL_TURNS = 20;
const AFTER_LOAD_WAIT_MS = 30_000;
export const TEXT = {
  burst: '[[words:200]]',
  paced: '[[words:200]] [[slow:20]]',
  tool: 'Add [[tool:add:{"a":1,"b":2}]]',
  noTool: '[[say:Tool results: 3]]',
};
const TOOL_CALL_STREAM: StreamCheck = {
  firstToken: /"tool_calls"/,
  mustContain: ['"finish_reason":"tool_calls"', 'data: [DONE]'],
  mustNotContain: [],
};

export const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

const words = APP_STREAM('word200');
const toolApp = APP_STREAM('results: ', ['"type":"tool-output-available"']);

type Auth = Awaited<ReturnType<typeof signUpBenchAdmin>>;
export type Turns = ReturnType<typeof turnClients>;
/** The exact bodies the app sent the model, replayed by the direct requests. */
export type Bodies = Awaited<ReturnType<typeof captureBodies>>;

/** Turns through the app's POST /api/chat and straight to the fake model. */
export function turnClients(appUrl: string, fakeUrl: string, auth: Auth) {
  let seq = 0;
  const through = (text: string, check: StreamCheck) => {
    const id = `bench-${process.pid}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
    return timedStream(
      `${appUrl}/api/chat`,
      { id, message: { id: `${id}-m`, role: 'user', parts: [{ type: 'text', text }] } },
      auth,
      check,
    );
  };
  const direct = (body: unknown, check: StreamCheck) =>
    timedStream(`${fakeUrl}/v1/chat/completions`, body, { authorization: 'Bearer sk-bench-key' }, check);
  const mustOk = (t: Timing, what: string) => {
    if (!t.ok) throw new Error(`${what} failed: ${t.problem}`);
    return t;
  };
  return { through, direct, mustOk };
}

export async function captureBodies(fakeUrl: string, { through, mustOk }: Turns) {
  // --- The exact bodies the app sends the model, captured from the fake's request log. ---
  const capture = async (text: string, check: StreamCheck, expected: number) => {
    await request(`${fakeUrl}/requests`, 'DELETE');
    mustOk(await through(text, check), `capture turn ${JSON.stringify(text)}`);
    const logged = JSON.parse((await request(`${fakeUrl}/requests`, 'GET')).body) as Array<{ body: unknown }>;
    if (logged.length !== expected)
      throw new Error(`expected ${expected} model request(s) for ${text}, saw ${logged.length}`);
    return logged.map((l) => l.body);
  };
  const [burstBody] = await capture(TEXT.burst, words, 1);
  const [pacedBody] = await capture(TEXT.paced, words, 1);
  const [toolStep1, toolStep2] = await capture(TEXT.tool, toolApp, 2);
  const [noToolBody] = await capture(TEXT.noTool, APP_STREAM('results: '), 1);
  const bodies = { burst: burstBody, paced: pacedBody };
  return { bodies, toolStep1, toolStep2, noToolBody };
}

export async function warmUp(
  appUrl: string,
  auth: Auth,
  { through, direct, mustOk }: Turns,
  burstBody: unknown,
) {
  // --- Warm-up (discarded): both paths, sequential and concurrent, tools, the chat page. ---
  log('warming up');
  for (let i = 0; i < 10; i++) {
    mustOk(await direct(burstBody, MODEL_STREAM('word200')), 'warm-up direct');
    mustOk(await through(TEXT.burst, words), 'warm-up through');
  }
  for (let i = 0; i < 2; i++) {
    await Promise.all(Array.from({ length: 10 }, () => direct(burstBody, MODEL_STREAM('word200'))));
    for (const t of await Promise.all(Array.from({ length: 10 }, () => through(TEXT.burst, words))))
      mustOk(t, 'warm-up N=10');
  }
  for (let i = 0; i < 3; i++) mustOk(await through(TEXT.tool, toolApp), 'warm-up tool turn');
  await pageScripts(appUrl, '/', { cookie: auth.cookie });
}

export async function measureSql(appUrl: string, auth: Auth, { through, mustOk }: Turns) {
  // --- SQL statements per turn, from the server's statement hook (GET /api/admin/metrics). Reading the
  // counter costs statements itself (the admin check), so two back-to-back reads give that cost.
  const sqlCount = async () => {
    const m = await request(`${appUrl}/api/admin/metrics`, 'GET', auth);
    if (m.status !== 200) throw new Error(`metrics: HTTP ${m.status} ${m.body}`);
    return (JSON.parse(m.body) as { sqlStatements: number }).sqlStatements;
  };
  // A read's own statements differ when its cached session or user expires in between (each is
  // reused for a while), which only ever adds statements: the least of three measurements is the turn's.
  const sqlFor = async (turns: number, text: string, check: StreamCheck) => {
    let least = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 3; attempt++) {
      const a = await sqlCount();
      const b = await sqlCount();
      for (let i = 0; i < turns; i++) mustOk(await through(text, check), 'SQL-count turn');
      least = Math.min(least, ((await sqlCount()) - b - (b - a)) / turns);
    }
    return least;
  };
  const sql = {
    perTurn: await sqlFor(SQL_TURNS, TEXT.burst, words),
    // Statements that grow with the answer's length: a paced 200-word turn against a one-word turn.
    perToken:
      ((await sqlFor(1, TEXT.paced, words)) - (await sqlFor(1, '[[words:1]]', APP_STREAM('word1')))) / 199,
  };
  log(`SQL statements: ${sql.perTurn} per turn, ${sql.perToken} per token`);
  return sql;
}

/** The latency phases of PLAN; `serverPid` is the next-server process, `fakePid` the fake model's. */
export async function measurePhases(
  { through, direct }: Turns,
  bodies: Bodies['bodies'],
  serverPid: number,
  fakePid: number,
) {
  // --- Latency phases. Direct and app rounds alternate (order flips each round) to share machine noise. ---
  const phases: Phase[] = [];
  let n50Sampler: ReturnType<typeof sampleRss> | undefined;
  for (const { mode, n, rounds } of PLAN) {
    if (n === 50 && !n50Sampler) n50Sampler = sampleRss(serverPid, 100);
    log(`${mode} N=${n}: ${rounds} round(s)`);
    const phase: Phase = {
      mode,
      n,
      rounds,
      direct: [],
      through: [],
      serverCpuMs: 0,
      throughTurns: 0,
      modelCpuMs: 0,
      directTurns: 0,
    };
    for (let r = 0; r < rounds; r++) {
      const runDirect = async () => {
        const c0 = cpuMs(fakePid);
        phase.direct.push(
          ...(await Promise.all(
            Array.from({ length: n }, () => direct(bodies[mode], MODEL_STREAM('word200'))),
          )),
        );
        phase.modelCpuMs += cpuMs(fakePid) - c0;
        phase.directTurns += n;
      };
      const runThrough = async () => {
        const c0 = cpuMs(serverPid);
        phase.through.push(
          ...(await Promise.all(Array.from({ length: n }, () => through(TEXT[mode], words)))),
        );
        phase.serverCpuMs += cpuMs(serverPid) - c0;
        phase.throughTurns += n;
      };
      if (r % 2 === 0) await runDirect().then(runThrough);
      else await runThrough().then(runDirect);
    }
    const o = overheads(phase);
    log(
      `  TTFT p50 app ${o.through.ttft.p50.toFixed(1)} / model ${o.direct.ttft.p50.toFixed(1)} ms; failed: ${o.failed.through} app, ${o.failed.direct} model`,
    );
    for (const t of [...phase.through, ...phase.direct].filter((x) => !x.ok).slice(0, 3))
      log(`  failure: ${t.problem}`);
    phases.push(phase);
  }
  const peakN50 = n50Sampler?.stop().peak ?? Number.NaN;
  const cpuPerTurn: Record<string, { server: number; model: number }> = {};
  for (const p of phases)
    if (p.n !== 10)
      cpuPerTurn[`${p.mode} N=${p.n}`] = {
        server: p.serverCpuMs / p.throughTurns,
        model: p.modelCpuMs / p.directTurns,
      };
  return { phases, peakN50, cpuPerTurn };
}

export async function measureAfterLoad(serverPid: number) {
  // --- RSS 30 s after the load (sampled once a second meanwhile). ---
  log(`waiting ${AFTER_LOAD_WAIT_MS / 1000} s for RSS after the load`);
  const afterSeries: number[] = [];
  const idleCpu0 = cpuMs(serverPid);
  for (let s = 0; s < AFTER_LOAD_WAIT_MS / 1000; s++) {
    await sleep(1000);
    afterSeries.push(rssMb(serverPid));
  }
  const idleCpu = { msPerS: (cpuMs(serverPid) - idleCpu0) / (AFTER_LOAD_WAIT_MS / 1000) };
  const after30s = rssMb(serverPid);
  return { afterSeries, idleCpu, after30s };
}

export async function measureToolCall(
  { through, direct }: Turns,
  { toolStep1, toolStep2, noToolBody }: Bodies,
) {
  // --- One warm MCP tool call vs none: per pair, app time − the model's own time for the same requests. ---
  log(`tool vs no-tool: ${TOOL_TURNS} sequential pairs`);
  const tool: ToolPhase = { tool: [], toolDirect: [], noTool: [], noToolDirect: [], failures: [] };
  for (let i = 0; i < TOOL_TURNS + 3; i++) {
    const a = await through(TEXT.tool, toolApp);
    const d1 = await direct(toolStep1, TOOL_CALL_STREAM);
    const d2 = await direct(toolStep2, MODEL_STREAM('results: '));
    const b = await through(TEXT.noTool, APP_STREAM('results: '));
    const d3 = await direct(noToolBody, MODEL_STREAM('results: '));
    const bad = [a, d1, d2, b, d3].filter((t) => !t.ok);
    if (bad.length) tool.failures.push(...bad.map((t) => t.problem ?? '?'));
    if (i < 3 || bad.length) continue; // first 3 pairs are warm-up
    tool.tool.push(a.totalMs);
    tool.toolDirect.push(d1.totalMs + d2.totalMs);
    tool.noTool.push(b.totalMs);
    tool.noToolDirect.push(d3.totalMs);
  }
  for (const p of tool.failures.slice(0, 3)) log(`  failure: ${p}`);
  return tool;
}
