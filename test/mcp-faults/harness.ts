import assert from 'node:assert/strict';
import childProcess, { type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type ConnectionOptions, DEFAULT_CONNECTION_OPTIONS, type McpConnection } from '@/lib/mcp/connection';
import { McpFailure } from '@/lib/mcp/errors';
import type { LineBuffer } from '@/lib/mcp/line-buffer';
import { McpPool } from '@/lib/mcp/pool';
import type { McpServerConfig, RemoteConfig, StdioConfig } from '@/lib/schemas/mcp';

/** Shared set-up of the R1–R4 fault tests: real test-server processes, a pool, and /proc checks. */

export const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
/** Every stdio child of this test file carries it in its environment, so leftovers can be found. */
export const MARK = randomUUID();

/** Short limits so the faults play out in seconds (the defaults are asserted separately). */
export const FAST: ConnectionOptions = {
  ...DEFAULT_CONNECTION_OPTIONS,
  connectTimeoutMs: 5_000,
  baseBackoffMs: 200,
  maxBackoffMs: 800,
};

export const stdio = (name: string, env: Record<string, string> = {}, timeoutMs = 2_000): StdioConfig => ({
  name,
  transport: 'stdio',
  allow: ['*'],
  scope: 'shared',
  userValues: [],
  enabled: true,
  timeoutMs,
  command: process.execPath,
  args: [FIXTURE, 'stdio'],
  env: { FAULT_SUITE_MARK: MARK, ...env },
  cwd: null,
});

export const remote = (name: string, url: string, timeoutMs = 2_000): RemoteConfig => ({
  name,
  transport: 'http',
  allow: ['*'],
  scope: 'shared',
  userValues: [],
  enabled: true,
  timeoutMs,
  url,
  headers: {},
  allowPrivateNetwork: true,
});

const pools: McpPool[] = [];
after(async () => {
  await Promise.all(pools.map((p) => p.closeAll()));
});

export function newPool(configs: McpServerConfig[], opts: Partial<ConnectionOptions> = {}): McpPool {
  const pool = new McpPool({ ...FAST, ...opts });
  pools.push(pool);
  pool.sync(configs);
  return pool;
}

export function connectionOf(pool: McpPool, name: string): McpConnection {
  const conn = pool.get(name);
  assert.ok(conn, `pool has "${name}"`);
  return conn;
}

export const text = (r: { content: Array<{ type: string; text?: string }> }) =>
  r.content.map((c) => c.text ?? '').join('');
export const isFailure = (kind: McpFailure['kind'], pattern?: RegExp) => (err: unknown) =>
  err instanceof McpFailure && err.kind === kind && (!pattern || pattern.test(err.message));

export async function pidOf(conn: McpConnection): Promise<number> {
  const pid = ((await conn.getClient()).transport as StdioClientTransport | undefined)?.pid;
  assert.ok(pid, 'the connection has a child process');
  return pid;
}

/** The process state letter from /proc (R running, S sleeping, Z zombie …); null once it is gone and reaped. */
export function procState(pid: number): string | null {
  try {
    return /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Live processes started by this test file (found by MARK in their environment), wherever they were reparented. */
export function markedProcesses(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(`FAULT_SUITE_MARK=${MARK}`))
        found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return found;
}

/** Every child process spawned in this test process (the SDK spawns through child_process.spawn), by pid. */
const spawned = new Map<number, ChildProcess>();
const closed = new Set<ChildProcess>();
const realSpawn = childProcess.spawn;
childProcess.spawn = ((...args: Parameters<typeof realSpawn>) => {
  const child = realSpawn(...args);
  if (child.pid) spawned.set(child.pid, child);
  child.once('close', () => closed.add(child));
  return child;
}) as typeof realSpawn;
after(() => {
  childProcess.spawn = realSpawn;
});

/**
 * Resolves when the child `pid` (spawned by this test process) has exited, been reaped (no zombie) and
 * its pipes have closed — by then the host has seen its connection end too (the SDK listens for 'close').
 */
export async function exited(pid: number): Promise<void> {
  const child = spawned.get(pid);
  assert.ok(child, `child ${pid} was spawned by this test process`);
  if (!closed.has(child)) await once(child, 'close');
}

export const stderrHas = (conn: McpConnection, pattern: RegExp) =>
  conn.stderr.tail().some((l) => pattern.test(l));

const stderrCount = (conn: McpConnection, pattern: RegExp) =>
  conn.stderr.tail().filter((l) => pattern.test(l)).length;

type LineWaiter = { ready: () => boolean; resolve: () => void };
const lineWaiters = new WeakMap<LineBuffer, LineWaiter[]>();

/** Resolves once `conn`'s stderr tail holds `count` lines matching `pattern`: at once, or as lines arrive. */
export function stderrLine(conn: McpConnection, pattern: RegExp, count = 1): Promise<void> {
  const ready = () => stderrCount(conn, pattern) >= count;
  if (ready()) return Promise.resolve();
  let waiters = lineWaiters.get(conn.stderr);
  if (!waiters) {
    const list: LineWaiter[] = [];
    waiters = list;
    lineWaiters.set(conn.stderr, list);
    // LineBuffer.write hands every complete line to push: watch it there.
    const push = conn.stderr.push.bind(conn.stderr);
    conn.stderr.push = (line) => {
      push(line);
      for (const waiter of list.filter((w) => w.ready())) {
        list.splice(list.indexOf(waiter), 1);
        waiter.resolve();
      }
    };
  }
  const list = waiters;
  return new Promise((resolve) => list.push({ ready, resolve }));
}

/** Resolves when a message matching `match` is sent through a transport watched by spyTransport. */
export function sentMessage(sent: JSONRPCMessage[], match: (m: JSONRPCMessage) => boolean): Promise<void> {
  if (sent.some(match)) return Promise.resolve();
  const waiters = sendWaiters.get(sent);
  assert.ok(waiters, 'the list comes from spyTransport');
  return new Promise((resolve) => waiters.push({ match, resolve }));
}
const sendWaiters = new WeakMap<
  JSONRPCMessage[],
  Array<{ match: (m: JSONRPCMessage) => boolean; resolve: () => void }>
>();

/** Records what the client sends (the SDK calls transport.send for every outgoing message). */
export async function spySent(conn: McpConnection): Promise<JSONRPCMessage[]> {
  return spyTransport((await conn.getClient()).transport);
}

/** Records every message sent through `transport`. */
export function spyTransport(transport: Transport | undefined): JSONRPCMessage[] {
  assert.ok(transport);
  const sent: JSONRPCMessage[] = [];
  const waiters: Array<{ match: (m: JSONRPCMessage) => boolean; resolve: () => void }> = [];
  sendWaiters.set(sent, waiters);
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    for (const waiter of waiters.filter((w) => w.match(message))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    return send(message, options);
  };
  return sent;
}

/** One measurement line per case, collected from the test output for the table. */
export function report(id: string, what: string, ms: number): void {
  console.log(`${id} time-to-safe-state (${what}): ${Math.round(ms)} ms`);
}

/** The user the fault tests act as (every server in them is open to everyone). */
export const tester = { id: 'tester', email: 'tester@example.com', role: 'admin' };

/** Fails a wait that should end within moments, instead of hanging the file (no timing is asserted). */
export const GUARD_MS = 10_000;

/** Resolves once `condition` holds (checked every 10 ms); rejects after GUARD_MS, naming `what`. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + GUARD_MS;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`gave up after ${GUARD_MS} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
