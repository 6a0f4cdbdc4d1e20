// Big catalogs (SPEC §7.3 "MCP beyond tools"): above the admin's budget the model gets a built-in
// tool search instead of every schema, and the tools it finds are loaded for the rest of the turn.
// A real 200-tool MCP server (the test server's rich/catalog.mjs as a stdio child), the fake model
// over HTTP (its request log shows what each request carried), and a real browser.
import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import {
  ADMIN,
  assistantMessages,
  fakeModelRequests,
  originHeaders,
  send,
  signIn,
  streamChunks,
} from './helpers';

const SERVER = 't32many';
const h = originHeaders();
let serverId = '';

type Body = { messages: unknown[]; tools?: Array<{ function: { name: string } }> };
const toolNames = (body: Body) => (body.tools ?? []).map((t) => t.function.name);

/** The chat requests the fake model got whose user text holds `tag`, in order. */
async function requestsFor(page: Page, tag: string): Promise<Body[]> {
  return (await fakeModelRequests(page.request))
    .map((r) => r.body as Body)
    .filter((b) => JSON.stringify(b.messages).includes(tag));
}

const searchStatus = (page: Page) => page.getByRole('status', { name: /^Tool search on: / });
const card = (page: Page, tool: string) =>
  assistantMessages(page).last().locator(`[data-tool-call][data-tool-name="${tool}"]`);

test.beforeAll(async ({ browser }) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  const res = await admin.request.post('/api/mcp/servers', {
    data: {
      name: SERVER,
      transport: 'stdio',
      command: 'node',
      args: [resolve('e2e/fixtures/test-mcp-server.mjs'), 'stdio'],
      env: { TEST_MCP_RICH: '1', TEST_MCP_MANY_TOOLS: '200' },
      scope: 'shared',
    },
    headers: h,
  });
  expect(res.status(), await res.text()).toBe(201);
  serverId = (await res.json()).id;
  await admin.close();
});

test.afterAll(async ({ browser }) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await admin.request.delete(`/api/mcp/servers/${serverId}`, { headers: h });
  await admin.request.patch('/api/admin/settings', {
    data: { toolSearchMaxTools: 40, toolSearchMaxTokens: 10_000 },
    headers: h,
  });
  await admin.close();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
  await page.request.delete(`${FAKE_MODEL_URL}/requests`);
});

test('200 tools: the model first gets only the search tool, then what it found; a found tool runs end to end', async ({
  page,
}) => {
  await page.goto('/');
  // The composer says so before anything is sent (the catalog may need a moment to connect the server).
  await expect(async () => {
    await page.reload();
    await expect(searchStatus(page)).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  const label = (await searchStatus(page).getAttribute('aria-label')) ?? '';
  const count = Number(/(\d+) tools/.exec(label)?.[1]);
  expect(count).toBeGreaterThan(200);
  expect(label).toMatch(/~[\d,]+ tokens$/);

  const tag = 't32-search';
  await send(
    page,
    `${tag} [[tool:search_tools:{"query":"invoice"}]] [[call-found:{"note":"from search"}]] [[tools-report]]`,
  );
  const search = card(page, 'search_tools');
  await expect(search).toHaveAttribute('data-state', 'done');
  await expect(search).toHaveAttribute('data-server', 'built-in');
  await expect(search.locator('[data-tool-output]')).toContainText(`${SERVER}__widget_0002`);

  // The found tool is an MCP tool like any other: it asks for approval (no read-only hint), then runs.
  const widget = card(page, 'widget_0002');
  await expect(widget).toHaveAttribute('data-state', 'awaiting-approval');
  await expect(widget).toHaveAttribute('data-server', SERVER);
  await widget.getByRole('button', { name: 'Approve' }).click();
  await expect(widget).toHaveAttribute('data-state', 'done');
  await expect(widget.locator('[data-tool-output]')).toContainText('widget_0002 ran with note: from search');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('Tool results: widget_0002 ran with note: from search');
  await expect(answer).toContainText(/Tools in this request \(6\): .*t32many__widget_0002/);

  const requests = await requestsFor(page, tag);
  expect(requests).toHaveLength(3);
  // 1. Not 200 schemas: the search tool alone.
  expect(toolNames(requests[0] as Body)).toEqual(['search_tools']);
  // 2. After the search: the search tool and the five invoice widgets it found (2, 8, 14, 20, 26).
  const found = ['0002', '0008', '0014', '0020', '0026'].map((n) => `${SERVER}__widget_${n}`);
  expect(toolNames(requests[1] as Body).sort()).toEqual([...found, 'search_tools'].sort());
  // 3. After the approval (a new request to the app): the answer keeps what it had loaded.
  expect(toolNames(requests[2] as Body).sort()).toEqual([...found, 'search_tools'].sort());
});

test('a small catalog: tool search is off and every tool is sent', async ({ page }) => {
  await page.goto('/');
  await expect(async () => {
    await page.reload();
    await expect(searchStatus(page)).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });

  // Switch the big server off for this new conversation in the Tools menu.
  const settings = page.getByRole('dialog', { name: 'Tool settings' });
  await expect(async () => {
    if (!(await settings.isVisible())) await page.getByRole('button', { name: /^Tools · / }).click();
    await expect(settings).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await settings.getByRole('checkbox', { name: SERVER, exact: true }).uncheck();
  await expect(searchStatus(page)).toHaveCount(0);
  await expect(settings.locator('[data-tool-summary]')).not.toContainText('tool search on');
  const summary = (await settings.locator('[data-tool-summary]').textContent()) ?? '';
  const count = Number(/^(\d+) tools/.exec(summary)?.[1]);
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThanOrEqual(40);
  await page.keyboard.press('Escape');

  const tag = 't32-small';
  await send(page, `${tag} [[tools-report]]`);
  await expect(assistantMessages(page).last()).toContainText(`Tools in this request (${count}): `);
  const [request] = await requestsFor(page, tag);
  const names = toolNames(request as Body);
  expect(names).toHaveLength(count);
  expect(names).toContain('tests__add');
  expect(names).not.toContain('search_tools');
  expect(names.some((n) => n.startsWith(`${SERVER}__`))).toBe(false);
});

test('the admin sets the bounds in Settings: lowered under a small catalog, search turns on; bad values are refused', async ({
  page,
}) => {
  const bad = await page.request.patch('/api/admin/settings', {
    data: { toolSearchMaxTools: 0 },
    headers: h,
  });
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toContain('toolSearchMaxTools');

  await page.goto('/admin/users');
  const form = page.getByRole('form', { name: 'Tool search' });
  const maxTools = form.getByLabel('Tool search above this many tools');
  await expect(maxTools).toHaveValue('40');
  await expect(maxTools).toHaveAccessibleDescription(/more tools than this/);
  await expect(form.getByLabel('Tool search above this many schema tokens')).toHaveValue('10000');
  await expect(async () => {
    await maxTools.fill('3');
    await form.getByRole('button', { name: 'Save tool search' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible({ timeout: 2_000 });
  }).toPass();
  expect((await (await page.request.get('/api/admin/settings')).json()).toolSearchMaxTools).toBe(3);

  // Only the small "tests" server on: still more than 3 tools, so search is on, and the model sees it.
  const tag = 't32-lowered';
  const res = await page.request.post('/api/chat', {
    data: {
      id: `t32-${Date.now()}`,
      message: {
        id: `t32-${Date.now()}-m`,
        role: 'user',
        parts: [{ type: 'text', text: `${tag} [[tools-report]]` }],
      },
      tools: { servers: ['tests'] },
    },
    headers: h,
  });
  expect(res.status()).toBe(200);
  const text = streamChunks(await res.text())
    .map((c) => (c.type === 'text-delta' ? String(c.delta) : ''))
    .join('');
  expect(text).toBe('Tools in this request (1): search_tools');
  expect(toolNames((await requestsFor(page, tag))[0] as Body)).toEqual(['search_tools']);
});
