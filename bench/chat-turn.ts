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
import { closeAgents, pageScripts, signUpBenchAdmin } from './chat-turn-http';
import {
  captureBodies,
  log,
  measureAfterLoad,
  measurePhases,
  measureSql,
  measureToolCall,
  PLAN,
  TEXT,
  turnClients,
  warmUp,
} from './chat-turn-measure';
import {
  type Child,
  CLK_TCK,
  findNextServerPid,
  groupMembers,
  rssMb,
  sampleRss,
  startBenchStack,
  stopChild,
} from './chat-turn-procs';
import { breakdown, LEGEND, render, resultsJson, type Rss } from './chat-turn-report';
import { measureColdWork } from './cold-work';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(import.meta.dirname, 'results.json');

const children: Child[] = [];
let tmpDir = '';

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
  const turns = turnClients(appUrl, fakeUrl, auth);
  const captured = await captureBodies(fakeUrl, turns);
  await warmUp(appUrl, auth, turns, captured.bodies.burst);
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

  const sql = await measureSql(appUrl, auth, turns);
  const { phases, peakN50, cpuPerTurn } = await measurePhases(
    turns,
    captured.bodies,
    server.pid,
    fake.proc.pid!,
  );
  rss.peakN50 = peakN50;

  const { afterSeries, idleCpu, after30s } = await measureAfterLoad(server.pid);
  rss.after30s = after30s;
  rss.peakWholeRun = wholeRun.stop().peak;

  const tool = await measureToolCall(turns, captured);

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
