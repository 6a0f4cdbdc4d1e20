// For e2e/48-multi-instance.spec.ts: app instances started as `next start` processes of their own, and
// chat turns read as they stream through Node's fetch (Playwright's request reads whole bodies).
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';
import { streamChunks } from './helpers';
import { SERVER_NODE_FLAGS } from '../scripts/node-flags.mjs';

export type Instance = { name: string; url: string; port: number; proc: ChildProcess; log: string[] };

export function startInstance(name: string, port: number, env: Record<string, string>): Instance {
  const proc = spawn(
    resolve('node_modules/.bin/node'),
    [...SERVER_NODE_FLAGS, 'node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
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

/** The answer's text in a turn's SSE. */
export const textOf = (sse: string) =>
  streamChunks(sse)
    .filter((c) => c.type === 'text-delta')
    .map((c) => c.delta)
    .join('');
