import { resolve } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { assistantMessages, originHeaders } from './helpers';

// What the two attack-MCP specs share: 16-attack-mcp-stdio.spec.ts (hostile stdio servers and
// tools) and 16-attack-mcp-remote.spec.ts (remote servers: credentials and OAuth).

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
