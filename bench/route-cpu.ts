/**
 * Server CPU per request by route (where a chat turn's CPU goes outside the turn itself): a static-free
 * API route without auth, one with the session, and a burst chat turn, each N at a time.
 *
 *   ./node_modules/.bin/node --import tsx --conditions=react-server bench/route-cpu.ts [REQUESTS] [N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_STREAM, closeAgents, signUpBenchAdmin, request, timedStream } from './chat-turn-http';
import { type Child, cpuMs, findNextServerPid, startBenchStack, stopChild } from './chat-turn-procs';
import { table } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..');
const REQUESTS = Number(process.argv[2] ?? 400);
const N = Number(process.argv[3] ?? 10);

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'route-cpu-'));
  const children: Child[] = [];
  try {
    const { app, appUrl } = await startBenchStack(ROOT, dir, children, process.env.MCP_SERVERS_FILE);
    const pid = findNextServerPid(app.proc.pid!).pid;
    const auth = await signUpBenchAdmin(appUrl);
    let seq = 0;
    const chat = (text: string) => {
      const id = `route-cpu-${++seq}`;
      return timedStream(
        `${appUrl}/api/chat`,
        { id, message: { id: `${id}-m`, role: 'user', parts: [{ type: 'text', text }] } },
        auth,
        APP_STREAM('word200'),
      ).then((t) => {
        if (!t.ok) throw new Error(`chat turn failed: HTTP ${t.status} ${t.problem}`);
      });
    };
    const kinds: Record<string, { run: () => Promise<unknown>; count: number }> = {
      'GET /api/health (no session)': { run: () => request(`${appUrl}/api/health`, 'GET'), count: REQUESTS },
      'GET /api/models (session)': {
        run: () => request(`${appUrl}/api/models`, 'GET', auth),
        count: REQUESTS,
      },
      'POST /api/chat, 200 words at once': { run: () => chat('[[words:200]]'), count: REQUESTS },
      // ~4 s a turn: N a round, two rounds.
      'POST /api/chat, 200 words 20 ms apart': {
        run: () => chat('[[words:200]] [[slow:20]]'),
        count: 2 * N,
      },
    };
    const rows: string[][] = [];
    for (const [name, { run, count }] of Object.entries(kinds)) {
      const measure = async (count: number) => {
        const c0 = cpuMs(pid);
        for (let i = 0; i < count / N; i++) await Promise.all(Array.from({ length: N }, run));
        return (cpuMs(pid) - c0) / count;
      };
      await measure(Math.min(count, 100)); // warm-up
      rows.push([name, (await measure(count)).toFixed(2)]);
    }
    console.log(`\nServer CPU per request (ms), ${REQUESTS} requests, ${N} at a time\n`);
    console.log(table(['request', 'CPU ms'], rows));
  } finally {
    for (const c of children.reverse()) await stopChild(c);
    closeAgents();
    rmSync(dir, { recursive: true, force: true });
  }
}
await main();
