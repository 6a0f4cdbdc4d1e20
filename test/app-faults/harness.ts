/**
 * Harness for the fault tests (test/app-faults/*.test.ts, `npm run test:faults`): the production app as
 * a real process the test controls (kill -9, restart), the fake model, and MCP stdio servers from a temp
 * config. Builds nothing: it needs an existing `next build` in the working directory.
 *
 * Every process runs in its own process group (bench/chat-turn-procs.ts), so teardown reaches the MCP
 * children too; teardown also runs when the test process exits early.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { closeAgents, request } from '@/bench/chat-turn-http';
import { type Account, type Auth, liftChatLimits, signUp } from './app-client';
import {
  type Child,
  childrenOf,
  cmdline,
  findNextServerPid,
  freePort,
  groupMembers,
  nextStartArgv,
  startChild,
  stopChild,
  waitForHttp,
} from '@/bench/chat-turn-procs';

export { childrenOf, cmdline, request };
export * from './app-client';
export const ROOT = process.cwd();
export const TEST_MCP_SERVER = path.join(ROOT, 'e2e/fixtures/test-mcp-server.mjs');
export const BAD_MCP_SERVER = path.join(ROOT, 'test/app-faults/fixtures/bad-mcp-server.mjs');

export type McpEntry = { command: string; args: string[]; env?: Record<string, string> };

/** Throws (with what to do) when there is no production build in the working directory. */
export function requireBuild(): void {
  if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) {
    throw new Error(
      `No production build in ${path.join(ROOT, '.next')} (BUILD_ID missing): run \`npm run build\` first.`,
    );
  }
}

const started: Child[] = [];
process.once('exit', () => {
  // Last resort (a crash between start and teardown): no process group outlives the test run.
  for (const c of started)
    if (c.proc.pid)
      try {
        process.kill(-c.proc.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
});

export class Stack {
  readonly tmpDir = mkdtempSync(path.join(os.tmpdir(), 'faults-'));
  readonly dbPath = path.join(this.tmpDir, 'app.db');
  appUrl = '';
  fakeUrl = '';
  app: Child | null = null;
  private fake: Child | null = null;
  private appPort = 0;
  private readonly children: Child[] = [];

  constructor(private readonly mcpServers: Record<string, McpEntry>) {}

  private spawn(name: string, argv: string[], env: NodeJS.ProcessEnv): Child {
    const child = startChild(name, argv, env, ROOT);
    this.children.push(child);
    started.push(child);
    return child;
  }

  /** Fake model, then the app (fresh temp database). */
  async start(): Promise<this> {
    requireBuild();
    const fakePort = await freePort();
    this.appPort = await freePort();
    this.fakeUrl = `http://127.0.0.1:${fakePort}`;
    this.appUrl = `http://127.0.0.1:${this.appPort}`;
    writeFileSync(path.join(this.tmpDir, 'mcp.json'), JSON.stringify({ mcpServers: this.mcpServers }));
    this.fake = this.spawn('fake model', [process.execPath, 'e2e/fixtures/fake-openai.mjs'], {
      ...baseEnv(),
      FAKE_OPENAI_PORT: String(fakePort),
    });
    await waitForHttp(`${this.fakeUrl}/health`, this.fake, 15_000);
    await this.startApp();
    return this;
  }

  /** `next start` (with `npm start`'s Node flags) on the stack's port and database (again, after a kill). */
  async startApp(): Promise<void> {
    const env: NodeJS.ProcessEnv = {
      ...baseEnv(),
      NODE_ENV: 'production',
      DATABASE_PATH: this.dbPath,
      APP_URL: this.appUrl,
      OPENAI_BASE_URL: `${this.fakeUrl}/v1`,
      OPENAI_API_KEY: 'sk-faults-key',
      CHAT_MODEL: 'fake-model',
      MCP_SERVERS_FILE: path.join(this.tmpDir, 'mcp.json'),
    };
    this.app = this.spawn('next start', nextStartArgv(this.appPort), env);
    await waitForHttp(`${this.appUrl}/api/health`, this.app, 60_000);
  }

  /** The process that serves requests (next-server). */
  serverPid(): number {
    if (!this.app?.proc.pid) throw new Error('the app is not running');
    return findNextServerPid(this.app.proc.pid).pid;
  }

  /** True while the app's spawned process has not exited. */
  appAlive(): boolean {
    return Boolean(this.app && this.app.proc.exitCode === null && this.app.proc.signalCode === null);
  }

  /** `kill -9` every process of the app itself (not its MCP children, which are left orphaned). */
  async kill9(): Promise<number[]> {
    const app = this.app;
    if (!app?.proc.pid) throw new Error('the app is not running');
    const pids = [...new Set([app.proc.pid, this.serverPid()])];
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await new Promise<void>((resolve) =>
      app.proc.exitCode !== null || app.proc.signalCode !== null
        ? resolve()
        : app.proc.once('exit', () => resolve()),
    );
    closeAgents(); // pooled sockets to the dead server
    return pids;
  }

  /** The app's last output lines (for failure messages). */
  appLog(lines = 40): string {
    return (this.app?.log ?? []).slice(-lines).join('\n');
  }

  async stop(): Promise<void> {
    for (const c of this.children.splice(0).reverse()) {
      await stopChild(c, 3000);
      if (c.proc.pid && groupMembers(c.proc.pid).length) process.kill(-c.proc.pid, 'SIGKILL');
    }
    closeAgents();
    rmSync(this.tmpDir, { recursive: true, force: true });
  }
}

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  for (const key of ['NODE_OPTIONS', 'AUTH_SECRET', 'PORT', 'NODE_TEST_CONTEXT']) delete env[key];
  return env;
}

/** The MCP config entry for the e2e test server (stdio), run by this Node. */
export const testServer = (): McpEntry => ({ command: process.execPath, args: [TEST_MCP_SERVER, 'stdio'] });
export const badServer = (): McpEntry => ({ command: process.execPath, args: [BAD_MCP_SERVER] });

/**
 * The shared set-up of a fault test file: a started stack with `account` signed up as its admin (and
 * the chat limits lifted unless `liftLimits: false`). A stack that fails to start is stopped again.
 * Use as `before(async () => ({ stack, admin } = await startStack(...)))` with `after(() => stack?.stop())`.
 */
export async function startStack(
  servers: Record<string, McpEntry>,
  account: Account,
  { liftLimits = true } = {},
): Promise<{ stack: Stack; admin: Auth }> {
  const stack = new Stack(servers);
  try {
    await stack.start();
    const admin = await signUp(stack, account);
    if (liftLimits) await liftChatLimits(stack, admin);
    return { stack, admin };
  } catch (err) {
    await stack.stop();
    throw err;
  }
}

/** Polls `probe` every `everyMs` until it returns a value (not undefined); throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
  everyMs = 20,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Live processes (not zombies) among `pids`. */
export function alive(pids: number[]): number[] {
  return pids.filter((pid) => {
    const status = procStatus(pid);
    return status !== null && status !== 'Z';
  });
}

/** The one-letter state of a process (R, S, Z, …) or null when it is gone. */
export function procStatus(pid: number): string | null {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return raw.slice(raw.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/** Runs `fn` on a short-lived read-only connection to the stack's database. */
export function withDb<T>(stack: Stack, fn: (db: Database.Database) => T): T {
  const db = new Database(stack.dbPath, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
