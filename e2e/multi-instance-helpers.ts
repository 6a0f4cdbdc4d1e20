// For the multi-instance e2e specs (48, 66, 67): two app instances on real Postgres and Redis behind nginx (A is one
// `next start` process, B is `npm start` with two workers), and chat turns read as they stream through Node's fetch (Playwright's
// request reads whole bodies).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { type APIRequestContext, expect, request, type TestInfo } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import { nextStartArgs } from '../scripts/node-flags.mjs';
import { freePort, type Nginx, startNginx } from './fixtures/nginx';
import { type PostgresServer, startPostgres } from './fixtures/postgres-server';
import { type RedisServer, startRedisServer } from './fixtures/redis-server';
import { streamChunks } from './helpers';

export type Instance = { name: string; url: string; port: number; proc: ChildProcess; log: string[] };

/** Two instances A and B on one Postgres and one Redis, behind nginx (`appUrl`, their APP_URL and Origin). */
export type TwoInstances = {
  pg: PostgresServer;
  redis: RedisServer;
  lb: Nginx;
  a: Instance;
  b: Instance;
  appUrl: string;
  dataDir: string;
};

/**
 * Starts the servers, nginx with the balancer setting of docs/nginx.conf, and both instances (ready): A
 * one process, B as `npm start` serves with a shared store, two workers behind its primary.
 */
export async function startTwoInstances(dataDir: string): Promise<TwoInstances> {
  const [pg, redis] = await Promise.all([startPostgres(), startRedisServer()]);
  const [portA, portB] = [await freePort(), await freePort()];
  const lb = await startNginx([portA, portB]);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  // What every instance shares: the database, Redis, the keys (set, not generated per instance) and the data folder.
  const env = {
    DATABASE_URL: pg.url,
    REDIS_URL: redis.url,
    DATABASE_PATH: `${dataDir}/app.db`,
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    APP_URL: lb.url,
    OPENAI_BASE_URL: `${FAKE_MODEL_URL}/v1`,
    OPENAI_API_KEY: 'sk-test-multi',
    CHAT_MODEL: 'fake-model',
    MCP_SERVERS_FILE: '',
  };
  const a = startInstance('A', portA, env);
  const b = startInstance('B', portB, { ...env, WEB_CONCURRENCY: '2' }, 'workers');
  await Promise.all([ready(a), ready(b)]);
  // Until B's second worker is up, its sessions are served by the first (then they move to their own).
  await expect.poll(() => b.log.join('').includes('all 2 workers ready'), { timeout: 90_000 }).toBe(true);
  return { pg, redis, lb, a, b, appUrl: lb.url, dataDir };
}

/** Kills both instances, stops the servers and removes the data folder (whatever of it was started). */
export async function stopTwoInstances(stack: Partial<TwoInstances>): Promise<void> {
  // B's workers exit with their primary (node:cluster ends a worker whose primary is gone).
  for (const instance of [stack.a, stack.b]) instance?.proc.kill('SIGKILL');
  await Promise.all([stack.lb?.stop(), stack.redis?.stop(), stack.pg?.stop()]);
  if (stack.dataDir) rmSync(stack.dataDir, { recursive: true, force: true });
}

/**
 * After a test that failed: the last lines each instance printed, attached to the test's report (the
 * list reporter prints them), so a failure seen only in CI comes with the servers' side of it.
 */
export async function attachLogsOnFailure(stack: Partial<TwoInstances> | undefined, testInfo: TestInfo) {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const instance of [stack?.a, stack?.b]) {
    if (!instance) continue;
    const tail = instance.log.join('').split('\n').slice(-150).join('\n');
    await testInfo.attach(`instance ${instance.name} (last lines)`, {
      body: tail,
      contentType: 'text/plain',
    });
  }
}

type Account = { email: string; password: string };

/** An API client signed in as `account` (cookies are per host, so one session reaches A, B and the balancer). */
export async function signedIn(account: Account, base: string, origin: string): Promise<APIRequestContext> {
  const ctx = await request.newContext({ baseURL: base, extraHTTPHeaders: { origin } });
  const res = await ctx.post('/api/auth/sign-in/email', {
    data: { email: account.email, password: account.password },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ctx;
}

/** The first account, signed up on A, is the admin: an API client signed in as it on A. */
export async function signUpAdmin(stack: TwoInstances, account: Account): Promise<APIRequestContext> {
  const signUp = await request.newContext({
    baseURL: stack.a.url,
    extraHTTPHeaders: { origin: stack.appUrl },
  });
  const res = await signUp.post('/api/auth/sign-up/email', { data: account });
  expect(res.status(), await res.text()).toBe(200);
  await signUp.dispose();
  return signedIn(account, stack.a.url, stack.appUrl);
}

/** Whether a process with this pid still runs. */
export const alive = (pid: number | undefined): boolean => {
  try {
    return process.kill(pid as number, 0);
  } catch {
    return false;
  }
};

export const newId = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A chat request's body: the conversation `id` and one user message. */
export const chatBody = (id: string, text: string) => ({
  id,
  message: { id: newId('q'), role: 'user', parts: [{ type: 'text', text }] },
});

/** One `next start` process, or with `workers` the way `npm start` serves (WEB_CONCURRENCY in `env`). */
export function startInstance(
  name: string,
  port: number,
  env: Record<string, string>,
  mode: 'one' | 'workers' = 'one',
): Instance {
  // `npm start -- -p … -H …` as an operator would give them (PORT left unset so the -p is what counts).
  const args =
    mode === 'workers'
      ? ['scripts/start.mjs', '-p', String(port), '-H', '127.0.0.1', '--keepAliveTimeout', '65000']
      : nextStartArgs(port);
  const { PORT: _unset, ...inherited } = process.env;
  const proc = spawn(resolve('node_modules/.bin/node'), args, {
    env: { ...inherited, ...env, ...(mode === 'one' && { PORT: String(port) }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  for (const stream of [proc.stdout, proc.stderr]) stream?.on('data', (d) => log.push(String(d)));
  return { name, url: `http://127.0.0.1:${port}`, port, proc, log };
}

/** Resolves once the instance answers /api/ready with 200; fails with its log if it exits first. */
export async function ready(instance: Instance): Promise<void> {
  await expect
    .poll(
      async () => {
        if (instance.proc.exitCode !== null)
          throw new Error(`${instance.name} exited: ${instance.log.join('')}`);
        return fetch(`${instance.url}/api/ready`).then(
          (r) => r.status,
          () => 0,
        );
      },
      { timeout: 90_000, intervals: [250] },
    )
    .toBe(200);
}

/**
 * A chat turn's SSE as text once it ends (`HTTP <status>` when refused), sent with `ctx`'s cookies and
 * `origin`; `onText` sees the text so far after each read.
 */
export async function streamTurn(
  ctx: APIRequestContext,
  url: string,
  origin: string,
  init: RequestInit = {},
  onText?: (soFar: string) => void,
): Promise<string> {
  const cookie = (await ctx.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const res = await fetch(url, {
    ...init,
    headers: { cookie, origin, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  if (res.status !== 200 || !res.body) return `HTTP ${res.status}`;
  const decoder = new TextDecoder();
  let text = '';
  for await (const bytes of res.body) {
    text += decoder.decode(bytes, { stream: true });
    onText?.(text);
  }
  return text;
}

/** Whether the conversation's turn runs (on any instance), as `base` sees it. */
export const running = async (ctx: APIRequestContext, base: string, id: string) =>
  ((await (await ctx.get(`${base}/api/conversations/${id}`)).json()) as { running?: boolean }).running;

/** The conversation's stored messages as `base` serves them: each one's role, marked when it was cut short. */
export async function storedRoles(ctx: APIRequestContext, base: string, id: string): Promise<string[]> {
  const { messages } = (await (await ctx.get(`${base}/api/conversations/${id}`)).json()) as {
    messages: Array<{ role: string; metadata?: { interrupted?: boolean } }>;
  };
  return messages.map((m) => `${m.role}${m.metadata?.interrupted ? ' (interrupted)' : ''}`);
}

/** The answer's text in a turn's SSE. */
export const textOf = (sse: string) =>
  streamChunks(sse)
    .filter((c) => c.type === 'text-delta')
    .map((c) => c.delta)
    .join('');
