import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { assistantMessages, originHeaders } from './helpers';

// What the attack-MCP specs share: 16-attack-mcp-stdio.spec.ts (hostile stdio servers and tools),
// 16-attack-mcp-remote.spec.ts (remote servers: credentials and OAuth) and 61-mcp-oauth-hostile.spec.ts.

export const FIXTURE = resolve('e2e/fixtures/test-mcp-server.mjs');

export type Server = { id: string; name: string };
export const h = originHeaders();

export async function servers(request: APIRequestContext): Promise<Server[]> {
  return (await (await request.get('/api/mcp/servers')).json()).items as Server[];
}
export async function removeServer(request: APIRequestContext, name: string): Promise<void> {
  const found = (await servers(request)).find((s) => s.name === name);
  if (found) await request.delete(`/api/mcp/servers/${found.id}`, { headers: h });
}
export const toolCard = (page: Page, server: string, tool: string) =>
  assistantMessages(page)
    .last()
    .locator(`[data-tool-call][data-server="${server}"][data-tool-name="${tool}"]`);

export type LoggedRequest = {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[]>;
};

/** The test MCP server over HTTP (own process), logging every request it gets; `requireHeader` ("name:value") it then demands. */
export async function startLoggingHttpServer(requireHeader?: string) {
  const child = spawn(
    resolve('node_modules/.bin/node'),
    [FIXTURE, 'http', '--port', '0', ...(requireHeader ? ['--require-header', requireHeader] : [])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) ok(m[1]);
    });
    child.on('exit', (code) => fail(new Error(`test server exited (${code}): ${stderr}`)));
  });
  const requests = (): LoggedRequest[] =>
    stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LoggedRequest);
  return { url, requests, stop: () => child.kill() };
}
