// Issue 15 §2: each user signs in to an OAuth-protected remote MCP server with their own account, in
// the browser ("Connect <server>" in the Tools menu); tokens refresh one at a time and never leave the
// server. The authorization server and the protected MCP server are our fixture (real OAuth 2.1).
import { resolve } from 'node:path';
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import {
  ADMIN,
  databaseContains,
  ensureUser,
  originHeaders,
  signIn,
  specUser,
  streamChunks,
} from './helpers';

const BOB = specUser('s29', 'Bob User');

type Stats = {
  registrations: number;
  authorizations: number;
  tokenRequests: { authorization_code: number; refresh_token: number; other: number };
  whoamiUsers: string[];
};
type Fixture = { url: string; mcpUrl: string; stats(): Stats; close(): Promise<void> };

const h = originHeaders();
const newId = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
// Tokens live 63 s; the app refreshes any with under 60 s left, so a token is "fresh" for 3 s.
const LIFETIME_S = 63;

// Each test builds on the sign-in of the first.
test.describe.configure({ mode: 'serial' });

let fixture: Fixture;
let admin: BrowserContext;
let bob: BrowserContext;
let serverId = '';

test.beforeAll(async ({ browser }) => {
  const modulePath = resolve('e2e/fixtures/oauth-mcp-server.mjs');
  const { startOAuthMcpServer } = (await import(modulePath)) as {
    startOAuthMcpServer: (o: object) => Promise<Fixture>;
  };
  fixture = await startOAuthMcpServer({ autoApprove: false, tokenLifetimeSeconds: LIFETIME_S });
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  bob = await browser.newContext();
  await signIn(bob, BOB);
  const res = await admin.request.post('/api/mcp/servers', {
    data: { name: 't29oauth', transport: 'http', url: fixture.mcpUrl, allowPrivateNetwork: true },
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

type Chunk = ReturnType<typeof streamChunks>[number];
const outputOf = (chunks: Chunk[]) => {
  const output = chunks.find((c) => c.type === 'tool-output-available')?.output as
    | { content: Array<{ text: string }> }
    | undefined;
  return output ? (JSON.parse(output.content[0]?.text ?? '{}') as { sub: string }) : null;
};

/** Asks the model to call whoami; `approve` answers its approval card (whoami is not read-only). */
async function askWhoami(request: APIRequestContext) {
  const id = newId('t29');
  const res = await request.post('/api/chat', {
    data: {
      id,
      message: { id: `${id}-m`, role: 'user', parts: [{ type: 'text', text: '[[tool:t29oauth__whoami]]' }] },
    },
    headers: h,
  });
  expect(res.status()).toBe(200);
  const chunks = streamChunks(await res.text());
  const approvalId = chunks.find((c) => c.type === 'tool-approval-request')?.approvalId as string | undefined;
  return {
    chunks,
    approve: async () => {
      if (!approvalId) return outputOf(chunks);
      const answer = await request.post('/api/chat', {
        data: { id, approvals: [{ id: approvalId, approved: true }] },
        headers: h,
      });
      expect(answer.status()).toBe(200);
      return outputOf(streamChunks(await answer.text()));
    },
  };
}

/** whoami through the chat loop: the identity the MCP server saw, or null when the call failed. */
async function whoami(request: APIRequestContext) {
  return (await askWhoami(request)).approve();
}

const connection = async (request: APIRequestContext) =>
  (
    (await (await request.get('/api/mcp/connections')).json()).items as Array<{
      server: string;
      status: string;
    }>
  ).find((i) => i.server === 't29oauth');

async function openTools(page: Page) {
  await page.getByRole('button', { name: /^Tools · / }).click();
  return page.getByRole('dialog', { name: 'Tool settings' }).locator('[data-tool-server="t29oauth"]');
}

test('Connect: a user signs in with their own account in the browser and comes back to the same conversation; their calls carry their identity', async () => {
  // The first turn that would use it says why its tools are missing, once per conversation.
  const id = newId('t29n');
  const turn = (n: number) =>
    bob.request.post('/api/chat', {
      data: { id, message: { id: `${id}-${n}`, role: 'user', parts: [{ type: 'text', text: 'hi' }] } },
      headers: h,
    });
  const notices = async (n: number) =>
    streamChunks(await (await turn(n)).text()).filter(
      (c) => c.type === 'data-notice' && (c.data as { kind: string }).kind === 'connect',
    );
  const first = await notices(1);
  expect(first).toHaveLength(1);
  expect(JSON.stringify(first[0]?.data)).toContain('t29oauth');
  expect(await notices(2)).toHaveLength(0);

  const page = await bob.newPage();
  await page.goto('/');
  let row = await openTools(page);
  await expect(row.getByRole('checkbox')).toBeDisabled();
  const connect = row.getByRole('button', { name: 'Connect t29oauth' });
  await expect(connect).toBeVisible();
  const startedAt = page.url();
  await connect.click();
  // Before anything opens, the sign-in page's domain and full URL are shown (S11).
  const host = new URL(fixture.url).host;
  await expect(row.locator('[data-sign-in-url]')).toContainText(`${fixture.url}/authorize?`);
  await row.getByRole('link', { name: `Continue to ${host}` }).click();
  // The authorization server's own consent page.
  await page.waitForURL(`${fixture.url}/**`);
  await page.getByLabel('User').fill('bob-at-idp');
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(startedAt);
  row = await openTools(page);
  await expect(row.getByRole('checkbox')).toBeEnabled();
  await page.close();

  expect((await connection(bob.request))?.status).toBe('ready');
  expect((await whoami(bob.request))?.sub).toBe('bob-at-idp');
  // The admin has not signed in: the server needs their own sign-in, and Bob's is not theirs.
  expect(await whoami(admin.request)).toBeNull();
  expect((await connection(admin.request))?.status).toBe('needs-auth');
  const stats = fixture.stats();
  expect(stats.registrations).toBe(1); // one client for the app, registered once (DCR)
  expect(stats.tokenRequests.authorization_code).toBe(1);

  // Tokens never leave the server: no API answer or page carries them, and the database holds them sealed.
  for (const [ctx, path] of [
    [bob, '/api/mcp/connections'],
    [bob, '/api/tools'],
    [admin, `/api/mcp/servers/${serverId}`],
    [admin, `/api/mcp/servers/${serverId}/logs`],
  ] as const)
    expect(await (await ctx.request.get(path)).text(), path).not.toMatch(/access_token|refresh_token/);
  expect(await databaseContains(serverId), 'the scan reads the database').toBe(true);
  expect(await databaseContains('"access_token"')).toBe(false);
});

test('refresh: a token about to expire is refreshed once, however many calls need it at the same time', async () => {
  expect((await whoami(bob.request))?.sub).toBe('bob-at-idp');
  await new Promise((r) => setTimeout(r, 3_500)); // now under 60 s left: due for refresh
  const before = fixture.stats().tokenRequests.refresh_token;
  // Five turns ask at once; their approvals then run five calls at the same time.
  const asked = await Promise.all(Array.from({ length: 5 }, () => askWhoami(bob.request)));
  const answers = await Promise.all(asked.map((a) => a.approve()));
  expect(answers.map((a) => a?.sub)).toEqual(Array(5).fill('bob-at-idp'));
  expect(fixture.stats().tokenRequests.refresh_token - before).toBe(1);
});

test('the callback refuses an answer that does not match the sign-in started in this browser', async () => {
  const start = await bob.request.post('/api/mcp/connections/t29oauth/authorize', {
    data: { returnTo: '/' },
    headers: h,
  });
  expect(start.status()).toBe(200);
  expect((await start.json()).url).toContain(fixture.url);
  const forged = await bob.request.get('/api/mcp/oauth/callback?code=stolen&state=not-the-state', {
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(400);
  expect(await forged.text()).toContain('does not match');
  // An authorization server's refusal is shown as such.
  const refused = await bob.request.get('/api/mcp/oauth/callback?error=access_denied', { maxRedirects: 0 });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain('refused the sign-in');
  // Anonymous: no sign-in completes.
  const anon = await fetch(`${APP_URL}/api/mcp/oauth/callback?code=x&state=y`, { redirect: 'manual' });
  expect(anon.status).toBe(401);
  // A server that does not use sign-in, or does not exist for the user.
  const stdio = await bob.request.post('/api/mcp/connections/tests/authorize', { data: {}, headers: h });
  expect(stdio.status()).toBe(400);
  const missing = await bob.request.post('/api/mcp/connections/nope/authorize', { data: {}, headers: h });
  expect(missing.status()).toBe(404);
  // The earlier sign-in still works.
  expect((await whoami(bob.request))?.sub).toBe('bob-at-idp');
});

test('Disconnect forgets the user’s tokens and closes their connection; the next use asks to connect again', async () => {
  const page = await bob.newPage();
  await page.goto('/');
  const row = await openTools(page);
  await row.getByRole('button', { name: 'Disconnect t29oauth' }).click();
  await expect(row.getByRole('button', { name: 'Connect t29oauth' })).toBeVisible();
  await page.close();
  expect(await whoami(bob.request)).toBeNull();
  expect((await connection(bob.request))?.status).toBe('needs-auth');
});

test('the client metadata document is public and names our callback', async ({ playwright }) => {
  const anon = await playwright.request.newContext({ baseURL: APP_URL });
  const res = await anon.get('/oauth/client-metadata.json');
  expect(res.status()).toBe(200);
  const doc = await res.json();
  expect(doc.client_id).toMatch(/\/oauth\/client-metadata\.json$/);
  expect(doc.redirect_uris).toEqual([expect.stringMatching(/\/api\/mcp\/oauth\/callback$/)]);
  expect(doc.grant_types).toEqual(['authorization_code', 'refresh_token']);
  await anon.dispose();
});
