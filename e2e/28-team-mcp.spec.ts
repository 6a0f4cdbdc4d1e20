// Issue 15 §1: per-user connections, allow lists on every route, values each user supplies, and the
// admin's view of who is connected. Real stdio children of the test MCP server; real browser for the
// Tools menu.
import { resolve } from 'node:path';
import { type APIRequestContext, type BrowserContext, expect, test } from '@playwright/test';
import {
  ADMIN,
  databaseContains,
  ensureUser,
  originHeaders,
  sendAllTools,
  signIn,
  specUser,
  streamChunks,
} from './helpers';

const FIXTURE = resolve('e2e/fixtures/test-mcp-server.mjs');
const BOB = specUser('s28', 'Bob User');
const CAROL = specUser('s28', 'Carol User');
const h = originHeaders();
const newId = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

const stdio = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  transport: 'stdio',
  command: 'node',
  args: [FIXTURE, 'stdio'],
  env: { TEST_MCP_ATTACK_TOOLS: '1' },
  ...extra,
});

let admin: BrowserContext;
let bob: BrowserContext;
let carol: BrowserContext;
let restoreToolSearch: () => Promise<void>;
const ids = new Map<string, string>();

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  await ensureUser(admin.request, CAROL);
  bob = await browser.newContext();
  await signIn(bob, BOB);
  carol = await browser.newContext();
  await signIn(carol, CAROL);
  // These tests call tools from the first step; five more servers put the catalog past the tool search
  // budget (32-tool-search.spec.ts tests that), so the budget is raised while they run.
  restoreToolSearch = await sendAllTools(admin.request);
  for (const config of [
    stdio('t28mine'),
    stdio('t28ours', { scope: 'shared' }),
    stdio('t28staff', { scope: 'shared', allow: ['admin', CAROL.email] }),
    stdio('t28gate', { scope: 'shared' }),
    stdio('t28vals', { userValues: ['T28_TOKEN'] }),
  ]) {
    const res = await admin.request.post('/api/mcp/servers', { data: config, headers: h });
    expect(res.status(), await res.text()).toBe(201);
    ids.set(config.name, (await res.json()).id);
  }
});

test.afterAll(async () => {
  for (const id of ids.values()) await admin.request.delete(`/api/mcp/servers/${id}`, { headers: h });
  await restoreToolSearch();
  await Promise.all([admin.close(), bob.close(), carol.close()]);
});

/** One chat turn whose model calls `server__tool` with `args`; the tool's output text, or its error. */
async function callTool(request: APIRequestContext, server: string, tool: string, args: object = {}) {
  const id = newId('t28');
  const res = await request.post('/api/chat', {
    data: {
      id,
      message: {
        id: `${id}-m`,
        role: 'user',
        parts: [{ type: 'text', text: `[[tool:${server}__${tool}:${JSON.stringify(args)}]]` }],
      },
    },
    headers: h,
  });
  expect(res.status()).toBe(200);
  const chunks = streamChunks(await res.text());
  const output = chunks.find((c) => c.type === 'tool-output-available')?.output as
    | { content: Array<{ text: string }> }
    | undefined;
  const error = chunks.find((c) => c.type === 'tool-output-error' || c.type === 'tool-input-error');
  return { text: output?.content.map((c) => c.text).join('') ?? null, error, chunks };
}

async function processOf(request: APIRequestContext, server: string) {
  const { text, error } = await callTool(request, server, 'process_info');
  expect(text, JSON.stringify(error)).toBeTruthy();
  return JSON.parse(text as string) as { pid: number; cwd: string; env: Record<string, string> };
}

const callCount = async (server: string, tool: string) => {
  const res = await admin.request.get(`/api/mcp/servers/${ids.get(server)}/logs`);
  const logs = (await res.json()) as { calls: Array<{ tool: string }> };
  return logs.calls.filter((c) => c.tool === tool).length;
};

test('scope "user": each user has their own child in their own folder; "shared": one child for all; the admin sees who is connected', async () => {
  const adminProc = await processOf(admin.request, 't28mine');
  const bobProc = await processOf(bob.request, 't28mine');
  const bobAgain = await processOf(bob.request, 't28mine');
  expect(bobProc.pid).not.toBe(adminProc.pid);
  expect(bobAgain.pid).toBe(bobProc.pid);
  // Each in a per-user folder under the data folder, never the app's checkout.
  for (const p of [adminProc, bobProc]) {
    expect(p.cwd).toContain(`${resolve('data/e2e')}/mcp-users/`);
    expect(p.cwd.endsWith('/t28mine')).toBe(true);
  }
  expect(bobProc.cwd).not.toBe(adminProc.cwd);

  const sharedA = await processOf(admin.request, 't28ours');
  const sharedB = await processOf(bob.request, 't28ours');
  expect(sharedB.pid).toBe(sharedA.pid);

  const detail = await (await admin.request.get(`/api/mcp/servers/${ids.get('t28mine')}`)).json();
  const emails = (detail.connections as Array<{ user: { email: string }; status: string }>)
    .map((c) => c.user.email)
    .sort();
  expect(emails).toEqual([ADMIN.email, BOB.email].sort());
  const page = await admin.newPage();
  await page.goto(`/admin/mcp/${ids.get('t28mine')}`);
  await expect(page.getByRole('heading', { name: 'Connections (2)' })).toBeVisible();
  await expect(page.locator(`[data-user-connection="${BOB.email}"]`)).toContainText('connected');
  await page.close();
});

test('allow list: to a user outside it the server does not exist on any route; the allowed user and the admin use it', async () => {
  const names = async (request: APIRequestContext, path: string, key: 'servers' | 'items') => {
    const body = await (await request.get(path)).json();
    return new Set(
      (body[key] as Array<{ name?: string; server?: string }>).map((s) => s.server ?? s.name ?? ''),
    );
  };
  for (const [who, sees] of [
    [bob, false],
    [carol, true],
    [admin, true],
  ] as const) {
    const label = who === bob ? 'bob' : who === carol ? 'carol' : 'admin';
    expect((await names(who.request, '/api/tools', 'servers')).has('t28staff'), `${label} tools`).toBe(sees);
    expect((await names(who.request, '/api/mcp/connections', 'items')).has('t28staff'), label).toBe(sees);
    expect((await names(who.request, '/api/prompts', 'items')).has('t28staff'), `${label} prompts`).toBe(
      sees,
    );
    expect((await names(who.request, '/api/resources', 'items')).has('t28staff'), `${label} resources`).toBe(
      sees,
    );
    const prompt = await who.request.post('/api/prompts/get', {
      data: { server: 't28staff', name: 'greeting', arguments: { name: 'x' } },
      headers: h,
    });
    expect(prompt.status(), `${label} prompts/get`).toBe(sees ? 200 : 404);
    const complete = await who.request.post('/api/prompts/complete', {
      data: { server: 't28staff', prompt: 'greeting', argument: 'name', value: 'a' },
      headers: h,
    });
    expect(complete.status(), `${label} prompts/complete`).toBe(sees ? 200 : 404);
    const completeTemplate = await who.request.post('/api/resources/complete', {
      data: { server: 't28staff', uriTemplate: 'test://items/{id}', argument: 'id', value: '' },
      headers: h,
    });
    expect(completeTemplate.status(), `${label} resources/complete`).toBe(sees ? 200 : 404);
  }
  // The user's own connection routes answer 404 for it, like for a server that does not exist.
  for (const [method, path, data] of [
    ['delete', '/api/mcp/connections/t28staff', undefined],
    ['put', '/api/mcp/connections/t28staff/values', { values: {} }],
    ['delete', '/api/mcp/connections/no-such-server', undefined],
  ] as const) {
    const res = await bob.request.fetch(path, { method, data, headers: h });
    expect(res.status(), `${method} ${path}`).toBe(404);
    expect(JSON.stringify(await res.json())).not.toContain('admin');
  }
  // Attaching one of its resources is refused, and nothing of it is read.
  const id = newId('t28res');
  const attach = await bob.request.post('/api/chat', {
    data: {
      id,
      message: {
        id: `${id}-m`,
        role: 'user',
        parts: [
          { type: 'text', text: 'read this' },
          { type: 'data-resource', data: { server: 't28staff', uri: 'test://docs/readme' } },
        ],
      },
    },
    headers: h,
  });
  expect(attach.status()).toBe(400);
  expect(await attach.text()).not.toContain('Test readme');

  // A call the model invents for it does not reach the server; carol's real call does.
  const before = await callCount('t28staff', 'env');
  const invented = await callTool(bob.request, 't28staff', 'env', { name: 'HOME' });
  expect(invented.text).toBeNull();
  expect(await callCount('t28staff', 'env')).toBe(before);
  expect((await callTool(carol.request, 't28staff', 'env', { name: 'TEST_MCP_ATTACK_TOOLS' })).text).toBe(
    '1',
  );
  expect(await callCount('t28staff', 'env')).toBe(before + 1);
});

test('allow list: an approval given after the user lost access runs nothing', async () => {
  const id = newId('t28gate');
  const first = await bob.request.post('/api/chat', {
    data: {
      id,
      message: {
        id: `${id}-m`,
        role: 'user',
        parts: [{ type: 'text', text: '[[tool:t28gate__delete_all]]' }],
      },
    },
    headers: h,
  });
  const approvalId = streamChunks(await first.text()).find((c) => c.type === 'tool-approval-request')
    ?.approvalId as string;
  expect(approvalId).toBeTruthy();
  const before = await callCount('t28gate', 'delete_all');
  const patched = await admin.request.patch(`/api/mcp/servers/${ids.get('t28gate')}`, {
    data: { allow: ['admin'] },
    headers: h,
  });
  expect(patched.status()).toBe(200);
  const answer = await bob.request.post('/api/chat', {
    data: { id, approvals: [{ id: approvalId, approved: true }] },
    headers: h,
  });
  expect(answer.status()).toBeLessThan(500);
  if (answer.status() === 200)
    expect(streamChunks(await answer.text()).some((c) => c.type === 'tool-output-available')).toBe(false);
  expect(await callCount('t28gate', 'delete_all')).toBe(before);
});

test('values each user supplies: entered once in the Tools menu, sealed at rest, only that user’s child gets it, never shown', async () => {
  const SECRET = `bob-secret-${Date.now()}`;
  const state = async (request: APIRequestContext) =>
    ((await (await request.get('/api/mcp/connections')).json()).items as Array<Record<string, unknown>>).find(
      (i) => i.server === 't28vals',
    );
  expect(await state(bob.request)).toMatchObject({
    status: 'needs-auth',
    values: [{ key: 'T28_TOKEN', set: false }],
  });
  // Without it the server does not start for the user, with a clear reason.
  const refused = await callTool(bob.request, 't28vals', 'env', { name: 'T28_TOKEN' });
  expect(refused.text).toBeNull();

  const page = await bob.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: /^Tools · / }).click();
  const menu = page.getByRole('dialog', { name: 'Tool settings' });
  const row = menu.locator('[data-tool-server="t28vals"]');
  await expect(row.getByRole('checkbox')).toBeDisabled();
  await row.getByLabel('Your T28_TOKEN for t28vals').fill(SECRET);
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByRole('checkbox').first()).toBeEnabled();
  await expect(page.locator('body')).not.toContainText(SECRET);
  await page.close();

  expect(await state(bob.request)).toMatchObject({
    status: 'ready',
    values: [{ key: 'T28_TOKEN', set: true }],
  });
  // Sealed at rest (checked before any answer quotes it: a tool's output is stored like any answer).
  expect(await databaseContains('t28vals'), 'the scan reads the database').toBe(true);
  expect(await databaseContains(SECRET)).toBe(false);
  expect((await callTool(bob.request, 't28vals', 'env', { name: 'T28_TOKEN' })).text).toBe(SECRET);
  // Carol has supplied nothing: the server does not start for her, and she never gets Bob's value.
  expect((await state(carol.request))?.status).toBe('needs-auth');
  expect((await callTool(carol.request, 't28vals', 'env', { name: 'T28_TOKEN' })).text).toBeNull();

  // Write-only: no API answer and no page carries it, and the database holds it sealed.
  for (const [ctx, path] of [
    [bob, '/api/mcp/connections'],
    [bob, '/api/tools'],
    [admin, `/api/mcp/servers/${ids.get('t28vals')}`],
    [admin, `/api/mcp/servers/${ids.get('t28vals')}/logs`],
    [admin, '/api/mcp/servers/export?secrets=1'],
    [admin, `/admin/mcp/${ids.get('t28vals')}`],
  ] as const)
    expect(await (await ctx.request.get(path)).text(), path).not.toContain(SECRET);

  // A bad value is refused with the reason; an unknown name too.
  const bad = await bob.request.put('/api/mcp/connections/t28vals/values', {
    data: { values: { OTHER: 'x' } },
    headers: h,
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.message).toContain('OTHER');
});
