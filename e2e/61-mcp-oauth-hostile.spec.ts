// Per-user OAuth sign-ins to a remote MCP server under unlucky timing: "Connect" started in two tabs,
// and the admin pointing the server at another address after users signed in. The authorization
// server and the protected MCP server are our fixture (real OAuth 2.1, consent given at once).
import { resolve } from 'node:path';
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { startLoggingHttpServer } from './attack-mcp';
import { ADMIN, ensureUser, originHeaders, signIn, specUser, streamChunks } from './helpers';

const BOB = specUser('s61', 'Bob Tabs');
const SERVER = 't61oauth';
const h = originHeaders();

type Fixture = { url: string; mcpUrl: string; close(): Promise<void> };
test.describe.configure({ mode: 'serial' });

let fixture: Fixture;
let admin: BrowserContext;
let bob: BrowserContext;
let serverId = '';

test.beforeAll(async ({ browser }) => {
  const { startOAuthMcpServer } = (await import(resolve('e2e/fixtures/oauth-mcp-server.mjs'))) as {
    startOAuthMcpServer: (o: object) => Promise<Fixture>;
  };
  fixture = await startOAuthMcpServer({ autoApprove: true });
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  bob = await browser.newContext();
  await signIn(bob, BOB);
  const res = await admin.request.post('/api/mcp/servers', {
    data: { name: SERVER, transport: 'http', url: fixture.mcpUrl, allowPrivateNetwork: true },
    headers: h,
  });
  expect(res.status(), await res.text()).toBe(201);
  serverId = (await res.json()).id;
});

test.afterAll(async () => {
  await admin.request.delete(`/api/mcp/servers/${serverId}`, { headers: h });
  await Promise.all([admin.close(), bob.close()]);
  await fixture.close();
});

async function toolsRow(page: Page) {
  await page.getByRole('button', { name: /^Tools · / }).click();
  return page.getByRole('dialog', { name: 'Tool settings' }).locator(`[data-tool-server="${SERVER}"]`);
}

const connection = async (request: APIRequestContext) =>
  (
    (await (await request.get('/api/mcp/connections')).json()).items as Array<{
      server: string;
      status: string;
      signedIn?: boolean;
    }>
  ).find((i) => i.server === SERVER);

/** A turn that calls the server's echo tool (approved): what came back. */
async function echo(request: APIRequestContext) {
  const id = `t61-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const text = `[[tool:${SERVER}__echo:{"text":"hi","message":"hi"}]]`;
  const res = await request.post('/api/chat', {
    data: { id, message: { id: `${id}-m`, role: 'user', parts: [{ type: 'text', text }] } },
    headers: h,
  });
  let chunks = streamChunks(await res.text());
  const approvalId = chunks.find((c) => c.type === 'tool-approval-request')?.approvalId;
  if (approvalId) {
    const answer = await request.post('/api/chat', {
      data: { id, approvals: [{ id: approvalId, approved: true }] },
      headers: h,
    });
    chunks = streamChunks(await answer.text());
  }
  return chunks;
}

test('Connect started in two tabs: finishing the first one started brings the user back connected, and so does the other', async () => {
  const [first, second] = [await bob.newPage(), await bob.newPage()];
  const links = [];
  for (const page of [first, second]) {
    await page.goto('/');
    const row = await toolsRow(page);
    await row.getByRole('button', { name: `Connect ${SERVER}` }).click();
    const link = row.getByRole('link', { name: `Continue to ${new URL(fixture.url).host}` });
    await expect(link).toBeVisible();
    links.push(link);
  }
  // The first tab's sign-in finishes after the second tab started its own.
  for (const [i, page] of [first, second].entries()) {
    const startedAt = page.url();
    await links[i]?.click();
    await page.waitForURL(startedAt);
    await expect(page.getByText('The sign-in did not complete')).toHaveCount(0);
    const row = await toolsRow(page);
    await expect(row.getByRole('button', { name: `Disconnect ${SERVER}` })).toBeVisible();
  }
  expect(await connection(bob.request)).toMatchObject({ status: 'ready', signedIn: true });
  await Promise.all([first.close(), second.close()]);
});

test('the admin points the server at another address: the user’s token is not sent there, and they are asked to sign in again', async () => {
  expect((await echo(bob.request)).some((c) => c.type === 'tool-output-available')).toBe(true);
  const other = await startLoggingHttpServer();
  try {
    const res = await admin.request.patch(`/api/mcp/servers/${serverId}`, {
      data: { url: `${other.url}/mcp` },
      headers: h,
    });
    expect(res.status(), await res.text()).toBe(200);
    await echo(bob.request);
    const seen = other.requests();
    expect(seen.length, 'the turn reached the new address').toBeGreaterThan(0);
    expect(seen.filter((r) => r.headers.authorization)).toEqual([]);
    expect((await connection(bob.request))?.signedIn).toBe(false);
  } finally {
    other.stop();
  }
});
