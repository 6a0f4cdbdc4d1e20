/**
 * Processes for the chat-turn benchmark (bench/chat-turn.ts): the fake model and the production
 * server as child processes in their own process groups, plus /proc readers (CPU time, RSS).
 * Linux only (it reads /proc).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { nextStartArgs } from '../scripts/node-flags.mjs';

/** Clock ticks per second for /proc/<pid>/stat utime/stime (usually 100). */
export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** A free TCP port on 127.0.0.1 (closed again at once; the child binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** argv for the production server as `npm start` runs it (same Node flags), on 127.0.0.1:`port`. */
export const nextStartArgv = (port: number) => [process.execPath, ...nextStartArgs(port)];

export type Child = { name: string; proc: ChildProcess; log: string[] };

/**
 * Spawns `argv` (no shell) in its own process group, so teardown can signal the whole group
 * (next start, the MCP stdio server it spawns, …). The last 200 lines of output are kept.
 */
export function startChild(name: string, argv: string[], env: NodeJS.ProcessEnv, cwd: string): Child {
  const proc = spawn(argv[0]!, argv.slice(1), {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const child: Child = { name, proc, log: [] };
  const keep = (buf: Buffer) => {
    for (const line of buf.toString('utf8').split('\n')) if (line.trim()) child.log.push(line);
    if (child.log.length > 200) child.log.splice(0, child.log.length - 200);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  return child;
}

/** Polls `url` until it answers 200 (or the child exits / the time runs out). */
export async function waitForHttp(url: string, child: Child, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.proc.exitCode !== null)
      throw new Error(`${child.name} exited (${child.proc.exitCode}):\n${child.log.join('\n')}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${child.name}: ${url} not ready after ${timeoutMs} ms:\n${child.log.join('\n')}`);
}

/** Process ids of every process whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[2]) === pgid) out.push(Number(entry));
  }
  return out;
}

/**
 * SIGTERM to the child's whole process group, SIGKILL to whatever is left after `graceMs`.
 * Returns the pids that needed SIGKILL (normally none).
 */
export async function stopChild(child: Child, graceMs = 5000): Promise<number[]> {
  const pgid = child.proc.pid;
  if (!pgid) return [];
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    return []; // group already gone
  }
  const until = Date.now() + graceMs;
  while (Date.now() < until && groupMembers(pgid).length > 0) await sleep(100);
  const left = groupMembers(pgid);
  if (left.length > 0) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // raced with exit
    }
    await sleep(200);
  }
  return left;
}

/** /proc/<pid>/stat: the process name, and the fields after it ([state, ppid, pgrp, …]); null if gone. */
function procStat(pid: number | string): { comm: string; fields: string[] } | null {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const end = raw.lastIndexOf(')');
    return { comm: raw.slice(raw.indexOf('(') + 1, end), fields: raw.slice(end + 2).split(' ') };
  } catch {
    return null;
  }
}

const statFields = (pid: number): string[] | null => procStat(pid)?.fields ?? null;

/** User + system CPU time (ms) in stat fields 14 (utime) and 15 (stime), 1-based; fields[0] is field 3. */
const cpuOfFields = (f: string[]) => ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;

/** User + system CPU time of a process (all its threads), in ms. */
export function cpuMs(pid: number): number {
  const f = statFields(pid);
  if (!f) throw new Error(`process ${pid} is gone`);
  return cpuOfFields(f);
}

/**
 * CPU (user + system, ms) of every process on the machine whose name starts with one of `names`
 * (e.g. next-server, postgres, redis-server, nginx), summed per name: read before and after a phase,
 * the difference is what each kind of process spent on it.
 */
export function cpuByName(names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry); // null: gone meanwhile
    const name = stat && names.find((n) => stat.comm.startsWith(n));
    if (stat && name) out[name] = (out[name] ?? 0) + cpuOfFields(stat.fields);
  }
  return out;
}

/** Resident set size of a process in MB (VmRSS), or NaN if it is gone. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/** Direct children of `pid` (from every thread's `children` file). */
export function childrenOf(pid: number): number[] {
  const out = new Set<number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const raw = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      for (const c of raw.split(/\s+/)) if (c) out.add(Number(c));
    }
  } catch {
    // gone
  }
  return [...out];
}

/**
 * The process that actually serves requests. `next start` renames itself to `next-server (vX)`, and
 * some versions fork a worker that does the work: take the deepest process named next-server among
 * the spawned one and its descendants (MCP stdio servers and other children are skipped).
 */
export function findNextServerPid(rootPid: number): { pid: number; how: string } {
  let best = { pid: rootPid, depth: -1 };
  const walk = (pid: number, depth: number) => {
    if (cmdline(pid).startsWith('next-server') && depth > best.depth) best = { pid, depth };
    for (const c of childrenOf(pid)) walk(c, depth + 1);
  };
  walk(rootPid, 0);
  if (best.depth === -1)
    return { pid: rootPid, how: `no process named next-server; using the spawned pid (${cmdline(rootPid)})` };
  return {
    pid: best.pid,
    how:
      best.depth === 0
        ? 'the spawned process itself (renamed next-server)'
        : `a next-server child ${best.depth} level(s) below the spawned process`,
  };
}

/** Samples RSS of `pid` every `everyMs` while running; `stop()` returns the peak and the samples. */
export function sampleRss(pid: number, everyMs = 100): { stop: () => { peak: number; samples: number[] } } {
  const samples: number[] = [rssMb(pid)];
  const timer = setInterval(() => samples.push(rssMb(pid)), everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      samples.push(rssMb(pid));
      const ok = samples.filter((x) => Number.isFinite(x));
      return { peak: Math.max(...ok), samples: ok };
    },
  };
}

/** The fake model (e2e/fixtures/fake-openai.mjs) on a free port, answering: its process and base URL. */
export async function startFakeModel(
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<{ fake: Child; url: string }> {
  const port = await freePort();
  const fake = startChild(
    'fake model',
    [process.execPath, 'e2e/fixtures/fake-openai.mjs'],
    { ...env, FAKE_OPENAI_PORT: String(port) },
    root,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health`, fake, 15_000);
  return { fake, url };
}

/**
 * The fake model and `next start` (production build, `npm start`'s Node flags) on free ports, with a
 * fresh database in `dataDir`; both are pushed onto `children` as they start, for the caller's teardown.
 * `mcpServersFile` is imported at start (none when omitted).
 */
export async function startBenchStack(
  root: string,
  dataDir: string,
  children: Child[],
  mcpServersFile?: string,
): Promise<{ fake: Child; app: Child; fakeUrl: string; appUrl: string; readyMs: number }> {
  const [fakePort, appPort] = [await freePort(), await freePort()];
  const fakeUrl = `http://127.0.0.1:${fakePort}`;
  const appUrl = `http://127.0.0.1:${appPort}`;
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const fake = startChild(
    'fake model',
    [process.execPath, 'e2e/fixtures/fake-openai.mjs'],
    { ...env, FAKE_OPENAI_PORT: String(fakePort) },
    root,
  );
  children.push(fake);
  const serverEnv: NodeJS.ProcessEnv = {
    ...env,
    NODE_ENV: 'production',
    DATABASE_PATH: `${dataDir}/app.db`,
    APP_URL: appUrl,
    OPENAI_BASE_URL: `${fakeUrl}/v1`,
    OPENAI_API_KEY: 'sk-bench-key',
    CHAT_MODEL: 'fake-model',
    ...(mcpServersFile ? { MCP_SERVERS_FILE: mcpServersFile } : {}),
  };
  // The server generates its own secret in the temp data folder; -p sets the port.
  for (const key of ['AUTH_SECRET', 'PORT', ...(mcpServersFile ? [] : ['MCP_SERVERS_FILE'])])
    delete serverEnv[key];
  const app = startChild('next start', nextStartArgv(appPort), serverEnv, root);
  children.push(app);
  await waitForHttp(`${fakeUrl}/health`, fake, 15_000);
  const t0 = Date.now();
  await waitForHttp(`${appUrl}/api/health`, app, 60_000);
  return { fake, app, fakeUrl, appUrl, readyMs: Date.now() - t0 };
}
