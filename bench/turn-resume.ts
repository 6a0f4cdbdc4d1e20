/**
 * Durable-turn benchmark (issue 14): what a running turn holds in memory, and how fast a client that
 * re-attaches (a reload, another tab) gets its first replayed chunk.
 *
 * Needs an existing production build. Starts the fake model and `next start` on a fresh temp database,
 * then for N = 1 and N = 50 running turns (2,000-word answers paced at 20 ms a word, their tabs closed at
 * once, so the turns run on with no reader):
 *  - server RSS and the turn buffer's bytes (GET /api/admin/metrics) against the idle figures → per turn;
 *  - the time from `GET /api/chat/[id]/stream` to its first body byte, p50/p95 over 40 requests spread
 *    over the running turns, beside GET /api/health measured the same way in the same run (the baseline:
 *    a route that does nothing).
 * Prints one table and writes bench/results-turns.json. Measurements only, never pass/fail.
 *
 *   ./node_modules/.bin/node --import tsx --conditions=react-server bench/turn-resume.ts
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { closeAgents, signUpBenchAdmin, request } from './chat-turn-http';
import { type Child, findNextServerPid, rssMb, startBenchStack, stopChild } from './chat-turn-procs';
import { percentile } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(import.meta.dirname, 'results-turns.json');
const SAMPLES = 40;
const children: Child[] = [];
let tmpDir = '';
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

/** Milliseconds from sending a GET to its first body byte (the connection is then dropped). */
function firstByte(url: string, cookie: string): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(url, { headers: { cookie }, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0 });
        return;
      }
      res.once('data', () => {
        resolve({ ms: performance.now() - t0, status: 200 });
        req.destroy();
      });
    });
    req.on('error', reject);
  });
}

/** Starts a turn and closes the connection as soon as the answer streams (the tab is gone). */
function startTurn(appUrl: string, auth: Record<string, string>, id: string): Promise<void> {
  const body = Buffer.from(
    JSON.stringify({
      id,
      message: {
        id: `${id}-m`,
        role: 'user',
        parts: [{ type: 'text', text: 'Go [[words:2000]] [[slow:20]]' }],
      },
    }),
  );
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${appUrl}/api/chat`,
      {
        method: 'POST',
        agent: false,
        headers: { ...auth, 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`turn ${id}: HTTP ${res.statusCode}`));
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const stat = (xs: number[]) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95), n: xs.length });

async function main() {
  if (!existsSync(path.join(ROOT, '.next/BUILD_ID')))
    throw new Error('No production build: run `next build` first.');
  tmpDir = mkdtempSync(path.join(os.tmpdir(), 'turns-bench-'));
  const { app, appUrl } = await startBenchStack(ROOT, tmpDir, children);
  const server = findNextServerPid(app.proc.pid!).pid;
  const auth = await signUpBenchAdmin(appUrl, 100);
  const metrics = async () =>
    JSON.parse((await request(`${appUrl}/api/admin/metrics`, 'GET', auth)).body) as {
      runningTurns: number;
      turnBufferBytes: number;
    };

  // Warm up: one full turn, and the routes measured below.
  await startTurn(appUrl, auth, 'warm-up-turn');
  for (let i = 0; i < 10; i++) await firstByte(`${appUrl}/api/health`, auth.cookie);
  await request(`${appUrl}/api/chat/warm-up-turn/stop`, 'POST', auth);
  await new Promise((r) => setTimeout(r, 2000));
  const idleRss = rssMb(server);

  const rows: Record<string, unknown>[] = [];
  for (const n of [1, 50]) {
    const ids = Array.from({ length: n }, (_, i) => `bench-n${n}-${i}-${Date.now()}`);
    await Promise.all(ids.map((id) => startTurn(appUrl, auth, id)));
    await new Promise((r) => setTimeout(r, 3000)); // ~150 words buffered per turn
    const m = await metrics();
    const rss = rssMb(server);
    const resume: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const r = await firstByte(`${appUrl}/api/chat/${ids[i % n]}/stream`, auth.cookie);
      if (r.status !== 200) throw new Error(`resume: HTTP ${r.status}`);
      resume.push(r.ms);
      baseline.push((await firstByte(`${appUrl}/api/health`, auth.cookie)).ms);
    }
    const row = {
      runningTurns: m.runningTurns,
      rssMb: rss,
      rssPerTurnMb: (rss - idleRss) / n,
      bufferKbPerTurn: m.turnBufferBytes / n / 1024,
      resumeFirstChunkMs: stat(resume),
      healthFirstByteMs: stat(baseline),
    };
    rows.push({ n, ...row });
    log(`N=${n}: ${JSON.stringify(row)}`);
    await Promise.all(ids.map((id) => request(`${appUrl}/api/chat/${id}/stop`, 'POST', auth)));
  }

  console.log(
    '\n| running turns | resume → first chunk p50 / p95 | baseline GET /api/health p50 / p95 | RSS per turn | buffer per turn (~3 s in) |',
  );
  console.log('|---|---|---|---|---|');
  for (const r of rows as Array<{
    n: number;
    resumeFirstChunkMs: { p50: number; p95: number };
    healthFirstByteMs: { p50: number; p95: number };
    rssPerTurnMb: number;
    bufferKbPerTurn: number;
  }>) {
    console.log(
      `| ${r.n} | ${r.resumeFirstChunkMs.p50.toFixed(2)} / ${r.resumeFirstChunkMs.p95.toFixed(2)} ms | ${r.healthFirstByteMs.p50.toFixed(2)} / ${r.healthFirstByteMs.p95.toFixed(2)} ms | ${r.rssPerTurnMb.toFixed(2)} MB | ${r.bufferKbPerTurn.toFixed(1)} KB |`,
    );
  }
  writeFileSync(
    OUT,
    `${JSON.stringify({ at: new Date().toISOString(), idleRssMb: idleRss, rows }, null, 2)}\n`,
  );
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const c of children.splice(0).reverse()) await stopChild(c);
    closeAgents();
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  });
