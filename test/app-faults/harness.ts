/**
 * Harness for the fault tests (test/app-faults/*.test.ts, `npm run test:faults`): the production app as
 * a real process the test controls (kill -9, restart), the fake model, and MCP stdio servers from a temp
 * config. Builds nothing: it needs an existing `next build` in the working directory.
 *
 * Every process runs in its own process group (bench/chat-turn-procs.ts), so teardown reaches the MCP
 * children too; teardown also runs when the test process exits early.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { closeAgents, cookieHeader, request } from '@/bench/chat-turn-http';
import type { ChatMessage } from '@/lib/schemas/chat';
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
export const ROOT = process.cwd();
export const TEST_MCP_SERVER = path.join(ROOT, 'e2e/fixtures/test-mcp-server.mjs');
export const BAD_MCP_SERVER = path.join(ROOT, 'test/app-faults/fixtures/bad-mcp-server.mjs');

export type Auth = { origin: string; cookie: string };
export type Account = { name: string; email: string; password: string };
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

/** Signs up (the first account becomes the admin) and returns the session headers. */
export async function signUp(stack: Stack, account: Account): Promise<Auth> {
  const origin = { origin: stack.appUrl };
  const res = await request(`${stack.appUrl}/api/auth/sign-up/email`, 'POST', origin, account);
  if (res.status !== 200)
    throw new Error(`sign-up of ${account.email} failed: HTTP ${res.status} ${res.body}`);
  return { ...origin, cookie: cookieHeader(res.headers) };
}

/** The admin lifts the per-user chat limits (requests per minute, answers at once). */
export async function liftChatLimits(stack: Stack, admin: Auth): Promise<void> {
  const res = await request(`${stack.appUrl}/api/admin/settings`, 'PATCH', admin, {
    chatRequestsPerMinute: 10_000,
    maxConcurrentTurns: 1000,
  });
  if (res.status !== 200) throw new Error(`raising the chat limits failed: HTTP ${res.status} ${res.body}`);
}

export const chatBody = (conversationId: string, messageId: string, text: string) => ({
  id: conversationId,
  message: { id: messageId, role: 'user', parts: [{ type: 'text', text }] },
});

let seq = 0;
/** A fresh id that POST /api/chat accepts (^[A-Za-z0-9_-]{8,64}$). */
export const newId = (prefix: string) =>
  `${prefix}-${process.pid}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

/** A whole chat turn (the SSE body buffered). */
export function chat(stack: Stack, auth: Auth, body: unknown) {
  return request(`${stack.appUrl}/api/chat`, 'POST', auth, body);
}

/**
 * Starts a chat turn and resolves once the streamed body matches `until` (the socket is still open):
 * `cut()` then closes it like a closed tab; `silence()` stops reading without closing (a dead network).
 */
export function chatUntil(stack: Stack, auth: Auth, body: unknown, until: RegExp, timeoutMs = 15_000) {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise<{ text: string; cut: () => void; silence: () => void }>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no ${until} in the stream after ${timeoutMs} ms: ${text.slice(-500)}`));
    }, timeoutMs);
    const req = http.request(`${stack.appUrl}/api/chat`, {
      method: 'POST',
      agent: false,
      headers: { ...auth, 'content-type': 'application/json', 'content-length': String(payload.length) },
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) reject(new Error(`POST /api/chat: HTTP ${res.statusCode}`));
      res.setEncoding('utf8');
      const onData = (chunk: string) => {
        text += chunk;
        if (!until.test(text)) return;
        clearTimeout(timer);
        res.off('data', onData);
        resolve({ text, cut: () => req.destroy(), silence: () => res.pause() });
      };
      res.on('data', onData);
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(payload);
  });
}

/** GET /api/conversations/[id]: what a reload shows. */
export async function conversation(
  stack: Stack,
  auth: Auth,
  id: string,
): Promise<{ status: number; messages: ChatMessage[] }> {
  const res = await request(`${stack.appUrl}/api/conversations/${id}`, 'GET', auth);
  return {
    status: res.status,
    messages: res.status === 200 ? (JSON.parse(res.body).messages as ChatMessage[]) : [],
  };
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

/** Tool parts of a stored message (MCP tools are all `dynamic-tool` parts). */
export const toolParts = (m: ChatMessage | undefined) =>
  (m?.parts ?? []).filter((p) => p.type === 'dynamic-tool');

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

/** The answer's text from a UI message stream (SSE) body: every `text-delta` joined. */
export function streamedText(sse: string): string {
  let text = '';
  for (const line of sse.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const chunk = JSON.parse(line.slice(6)) as { type: string; delta?: string };
    if (chunk.type === 'text-delta') text += chunk.delta ?? '';
  }
  return text;
}
