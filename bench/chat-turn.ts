/**
 * Chat-turn benchmark (issue 7): what the app adds to a chat turn beyond the model.
 *
 * One run starts the fake model (e2e/fixtures/fake-openai.mjs) and the production build (`next start`,
 * fresh temp database, the stdio MCP test server `tests` registered), signs up an admin, lifts the
 * per-user chat limits, then measures:
 *  - N = 1, 10, 50 concurrent turns of 200 words, burst and paced (20 ms/word): time to first token
 *    and total time straight to the model vs through POST /api/chat (p50, p95, overhead). The direct
 *    requests replay the exact body the app sent the model, so the difference is the app's own cost.
 *  - server CPU per turn (utime+stime of the next-server process over the through rounds; beside it the
 *    fake model process over the direct rounds, i.e. what writing the same tokens costs on this machine) and RSS:
 *    idle after warm-up, peak during N=50 (sampled every 100 ms), 30 s after the load;
 *  - one warm MCP tool call (`tests` add, auto-approved): (app − model's two requests) for a tool turn
 *    minus (app − model's one request) for a no-tool turn, p50 over 30 sequential pairs;
 *  - the chat page's first-load JavaScript (every /_next/ <script src> of `/`, gzipped);
 *  - the machine's cost of the same JS work back to back vs once every 20 ms (bench/cold-work.ts), the
 *    baseline for the paced CPU figure;
 *  - SQL statements per turn (and per token) from the server's statement hook, GET /api/admin/metrics;
 * Prints one table and writes bench/results.json. Needs an existing production build (.next/BUILD_ID).
 *
 *   ./node_modules/.bin/node --import tsx --conditions=react-server bench/chat-turn.ts
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  APP_STREAM,
  closeAgents,
  signUpBenchAdmin,
  MODEL_STREAM,
  pageScripts,
  request,
  type StreamCheck,
  type Timing,
  timedStream,
} from './chat-turn-http';
import {
  type Child,
  CLK_TCK,
  cpuMs,
  findNextServerPid,
  groupMembers,
  rssMb,
  sampleRss,
  startBenchStack,
  stopChild,
} from './chat-turn-procs';
import {
  breakdown,
  LEGEND,
  type Mode,
  overheads,
  type Phase,
  render,
  resultsJson,
  type Rss,
  type ToolPhase,
} from './chat-turn-report';
import { measureColdWork } from './cold-work';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(import.meta.dirname, 'results.json');
/** Rounds per (mode, N). Paced turns take ~4.3 s each, so paced N=1 uses fewer sequential turns. */
const PLAN: Array<{ mode: Mode; n: number; rounds: number }> = [
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
const TEXT = {
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

const children: Child[] = [];
let tmpDir = '';
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

async function teardown(): Promise<string[]> {
  const notes: string[] = [];
  for (const c of children.splice(0).reverse()) {
    const killed = await stopChild(c);
    if (killed.length) notes.push(`${c.name}: SIGKILL needed for pids ${killed.join(', ')}`);
    const left = c.proc.pid ? groupMembers(c.proc.pid) : [];
    if (left.length) notes.push(`${c.name}: still running after SIGKILL: ${left.join(', ')}`);
  }
  closeAgents();
  if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  tmpDir = '';
  return notes;
}

async function main() {
  if (!existsSync(path.join(ROOT, '.next/BUILD_ID')))
    throw new Error('No production build (.next/BUILD_ID): run `next build` first.');
  tmpDir = mkdtempSync(path.join(os.tmpdir(), 'chat-turn-bench-'));
  // Before anything else runs: the machine's cost of work that arrives after idle gaps.
  const coldWork = await measureColdWork();
  log(
    `cold work: ${coldWork.backToBackUs.toFixed(1)} µs back to back, ${coldWork.spacedUs.toFixed(1)} µs every ${coldWork.gapMs} ms`,
  );
  const { fake, app, fakeUrl, appUrl, readyMs } = await startBenchStack(
    ROOT,
    tmpDir,
    children,
    'e2e/fixtures/mcp-servers.e2e.json',
  );
  log(`app ready in ${readyMs} ms on ${appUrl}; fake model on ${fakeUrl}`);
  const server = findNextServerPid(app.proc.pid!);
  log(`measuring pid ${server.pid}: ${server.how}`);

  // --- Sign up the admin (first account) and lift the per-user chat limits. ---
  const auth = await signUpBenchAdmin(appUrl);

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

  // --- The exact bodies the app sends the model, captured from the fake's request log. ---
  const capture = async (text: string, check: StreamCheck, expected: number) => {
    await request(`${fakeUrl}/requests`, 'DELETE');
    mustOk(await through(text, check), `capture turn ${JSON.stringify(text)}`);
    const logged = JSON.parse((await request(`${fakeUrl}/requests`, 'GET')).body) as Array<{ body: unknown }>;
    if (logged.length !== expected)
      throw new Error(`expected ${expected} model request(s) for ${text}, saw ${logged.length}`);
    return logged.map((l) => l.body);
  };
  const words = APP_STREAM('word200');
  const toolApp = APP_STREAM('results: ', ['"type":"tool-output-available"']);
  const [burstBody] = await capture(TEXT.burst, words, 1);
  const [pacedBody] = await capture(TEXT.paced, words, 1);
  const [toolStep1, toolStep2] = await capture(TEXT.tool, toolApp, 2);
  const [noToolBody] = await capture(TEXT.noTool, APP_STREAM('results: '), 1);
  const bodies = { burst: burstBody, paced: pacedBody };

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
  // Idle = quiet for longer than the server's idle memory release (5 s after the last answer).
  await sleep(8000);
  const rss: Rss = {
    idle: rssMb(server.pid),
    peakN50: Number.NaN,
    after30s: Number.NaN,
    peakWholeRun: Number.NaN,
  };
  log(`idle RSS ${rss.idle.toFixed(1)} MB`);
  const wholeRun = sampleRss(server.pid, 100);

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

  // --- Latency phases. Direct and app rounds alternate (order flips each round) to share machine noise. ---
  const phases: Phase[] = [];
  let n50Sampler: ReturnType<typeof sampleRss> | undefined;
  for (const { mode, n, rounds } of PLAN) {
    if (n === 50 && !n50Sampler) n50Sampler = sampleRss(server.pid, 100);
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
        const c0 = cpuMs(fake.proc.pid!);
        phase.direct.push(
          ...(await Promise.all(
            Array.from({ length: n }, () => direct(bodies[mode], MODEL_STREAM('word200'))),
          )),
        );
        phase.modelCpuMs += cpuMs(fake.proc.pid!) - c0;
        phase.directTurns += n;
      };
      const runThrough = async () => {
        const c0 = cpuMs(server.pid);
        phase.through.push(
          ...(await Promise.all(Array.from({ length: n }, () => through(TEXT[mode], words)))),
        );
        phase.serverCpuMs += cpuMs(server.pid) - c0;
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
  rss.peakN50 = n50Sampler?.stop().peak ?? Number.NaN;
  const cpuPerTurn: Record<string, { server: number; model: number }> = {};
  for (const p of phases)
    if (p.n !== 10)
      cpuPerTurn[`${p.mode} N=${p.n}`] = {
        server: p.serverCpuMs / p.throughTurns,
        model: p.modelCpuMs / p.directTurns,
      };

  // --- RSS 30 s after the load (sampled once a second meanwhile). ---
  log(`waiting ${AFTER_LOAD_WAIT_MS / 1000} s for RSS after the load`);
  const afterSeries: number[] = [];
  const idleCpu0 = cpuMs(server.pid);
  for (let s = 0; s < AFTER_LOAD_WAIT_MS / 1000; s++) {
    await sleep(1000);
    afterSeries.push(rssMb(server.pid));
  }
  const idleCpu = { msPerS: (cpuMs(server.pid) - idleCpu0) / (AFTER_LOAD_WAIT_MS / 1000) };
  rss.after30s = rssMb(server.pid);
  rss.peakWholeRun = wholeRun.stop().peak;

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

  // --- The chat page's first-load JavaScript. ---
  const js = await pageScripts(appUrl, '/', { cookie: auth.cookie });
  const pageJs = {
    pageStatus: js.pageStatus,
    scripts: js.scripts.length,
    rawBytes: js.rawBytes,
    gzipBytes: js.gzipBytes,
  };

  const serverLogTail = app.log.slice(-30);
  const teardownNotes = await teardown();

  // --- Report. ---
  const report = { phases, cpuPerTurn, rss, tool, pageJs, sql, idleCpu, coldWork };
  console.log(
    `\nChat-turn benchmark — Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu?'} ×${os.cpus().length}, load avg ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
  );
  console.log(render(report));
  console.log(`\n${LEGEND}`);
  console.log(
    `\nWhere the time goes before the first token (app side, p50 ms from sending the request):\n${breakdown(phases)}`,
  );
  if (teardownNotes.length) console.log(`\nTeardown: ${teardownNotes.join('; ')}`);

  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model,
    cpus: os.cpus().length,
    loadavgAtEnd: os.loadavg(),
    unit: 'ms, MB (MiB of VmRSS), bytes',
    clkTck: CLK_TCK,
    serverPid: server,
    plan: PLAN,
    texts: TEXT,
    note: 'direct requests replay the exact body the app sent the fake model; overhead = through − direct per percentile',
  };
  const json = resultsJson(report, meta, {
    rssAfterLoadSeriesPerSecond: afterSeries,
    pageJs: js,
    serverLogTail,
    teardownNotes,
  });
  writeFileSync(OUT, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\nraw figures: ${path.relative(ROOT, OUT)}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void teardown().finally(() => process.exit(130)));
}
main().catch(async (err) => {
  console.error(err);
  for (const c of children)
    if (c.log.length) console.error(`--- ${c.name} (last lines) ---\n${c.log.slice(-20).join('\n')}`);
  await teardown();
  process.exitCode = 1;
});
