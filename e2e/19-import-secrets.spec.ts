import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { type Account, ADMIN, assistantMessages, originHeaders, send, signIn } from './helpers';

const FIXTURE = resolve('e2e/fixtures/test-mcp-server.mjs');
/** What the API shows for a stored secret (lib/mcp/mask.ts). */
const MASK = '••••••';
const IMPORT = '/api/mcp/servers/import';
const h = originHeaders();
const CREATED = ['a11-kept', 'a11-other', 'a11-nothing', 'a11-deep'];

type Servers = { mcpServers: Record<string, { env?: Record<string, string>; timeoutMs?: number }> };

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
});

async function removeServers(request: APIRequestContext): Promise<void> {
  const servers = (await (await request.get('/api/mcp/servers')).json()).items as Array<{
    id: string;
    name: string;
  }>;
  for (const s of servers.filter((s) => CREATED.includes(s.name)))
    await request.delete(`/api/mcp/servers/${s.id}`, { headers: h });
}

test.afterAll(async ({ browser }) => {
  const context = await browser.newContext();
  await signIn(context, ADMIN);
  await removeServers(context.request);
  await context.close();
});

test('A11: importing an export keeps the stored secrets behind its masks; the preview says which values are kept', async ({
  page,
}) => {
  const canary = `A11-SECRET-${randomUUID()}`;
  await removeServers(page.request);
  const created = await page.request.post('/api/mcp/servers', {
    data: {
      name: 'a11-kept',
      transport: 'stdio',
      command: 'node',
      args: [FIXTURE, 'stdio'],
      env: { A11_SECRET: canary },
    },
    headers: h,
  });
  expect(created.status(), await created.text()).toBe(201);

  const exported = (await (await page.request.get('/api/mcp/servers/export')).json()) as Servers;
  expect(exported.mcpServers['a11-kept']?.env).toEqual({ A11_SECRET: MASK });
  expect(JSON.stringify(exported)).not.toContain(canary);
  // One change besides the masks, so that the import really rewrites the row.
  const edited: Servers = {
    mcpServers: {
      ...exported.mcpServers,
      'a11-kept': { ...exported.mcpServers['a11-kept'], timeoutMs: 30_000 },
    },
  };

  // The admin dialog's preview.
  await page.goto('/admin/mcp');
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import MCP servers' });
  await dialog.getByLabel('Claude Desktop config (JSON)').fill(JSON.stringify(edited, null, 2));
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByRole('region', { name: 'Will be updated' }).getByRole('listitem')).toHaveText([
    'a11-kept',
  ]);
  await expect(dialog.getByRole('region', { name: 'Stored secrets kept' })).toContainText(
    'a11-kept: env.A11_SECRET kept',
  );
  await expect(dialog.getByRole('region', { name: 'Errors' })).toHaveCount(0);

  // The API's dry run, then the import itself.
  const preview = await page.request.post(`${IMPORT}?dryRun=1`, { data: edited, headers: h });
  expect(preview.status(), await preview.text()).toBe(200);
  const planned = await preview.json();
  expect(planned).toMatchObject({ updated: ['a11-kept'], errors: [] });
  expect(planned.kept).toContainEqual({ name: 'a11-kept', keys: ['env.A11_SECRET'] });
  const applied = await page.request.post(IMPORT, { data: edited, headers: h });
  expect(applied.status(), await applied.text()).toBe(200);
  expect(await applied.json()).toMatchObject({ updated: ['a11-kept'], errors: [] });

  // The stored value is the secret, not the mask, and the server process gets it.
  const withSecrets = (await (await page.request.get('/api/mcp/servers/export?secrets=1')).json()) as Servers;
  expect(withSecrets.mcpServers['a11-kept']).toMatchObject({
    env: { A11_SECRET: canary },
    timeoutMs: 30_000,
  });
  await page.goto('/');
  await send(page, 'Which secret? [[tool:a11-kept__env:{"name":"A11_SECRET"}]]');
  const card = assistantMessages(page)
    .last()
    .locator('[data-tool-call][data-server="a11-kept"][data-tool-name="env"]');
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(card.locator('[data-tool-output]')).toHaveText(canary);
});

test('A11: a masked value with no stored secret to keep is an error naming the key; the other entries still import', async ({
  page,
}) => {
  const body = {
    mcpServers: {
      'a11-nothing': { command: 'node', env: { NEW_KEY: MASK } },
      'a11-other': { command: 'node', args: [FIXTURE, 'stdio'], disabled: true },
    },
  };
  const res = await page.request.post(IMPORT, { data: body, headers: h });
  expect(res.status(), await res.text()).toBe(200);
  const result = await res.json();
  expect(result.added).toEqual(['a11-other']);
  expect(result.errors).toHaveLength(1);
  expect(result.errors[0].name).toBe('a11-nothing');
  expect(result.errors[0].message).toContain('env.NEW_KEY');
  const names = (
    (await (await page.request.get('/api/mcp/servers')).json()).items as Array<{ name: string }>
  ).map((s) => s.name);
  expect(names).toContain('a11-other');
  expect(names).not.toContain('a11-nothing');
});

test('A11: deeply nested import JSON is a 400 that says so, never a 500', async ({ page }) => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  for (const text of [deep, `{"mcpServers":{"a11-deep":{"command":"node","extra":${deep}}}}`]) {
    const res = await page.request.post(`${IMPORT}?dryRun=1`, {
      data: Buffer.from(text),
      headers: { ...h, 'content-type': 'application/json' },
    });
    expect(res.status()).toBe(400);
    expect((await res.json()).error.message).toContain('nested deeper than');
  }
});

test('A11: an import body over 1 MB is a 413', async ({ page }) => {
  const text = JSON.stringify({ mcpServers: {}, padding: 'x'.repeat(2 * 1024 * 1024) });
  const res = await page.request.post(`${IMPORT}?dryRun=1`, {
    data: Buffer.from(text),
    headers: { ...h, 'content-type': 'application/json' },
  });
  expect(res.status()).toBe(413);
  expect((await res.json()).error.code).toBe('payload_too_large');
});

test('A11: a burst of imports from one admin gets 429 with Retry-After', async ({ browser, page }) => {
  // A second admin of its own, so that the limit it hits is not the one the other specs' admin uses.
  const burster: Account = {
    name: 'Burst Admin',
    email: `a11-burst-${randomUUID()}@example.com`,
    password: 'burst-password-1',
  };
  const made = await page.request.post('/api/admin/users', {
    data: { ...burster, role: 'admin' },
    headers: h,
  });
  expect(made.status(), await made.text()).toBe(201);
  const context = await browser.newContext();
  try {
    await signIn(context, burster);
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 40 && !retryAfter; i++) {
      const res = await context.request.post(`${IMPORT}?dryRun=1`, { data: { mcpServers: {} }, headers: h });
      statuses.push(res.status());
      if (res.status() === 429) retryAfter = res.headers()['retry-after'];
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // Another admin is not affected.
    expect(
      (await page.request.post(`${IMPORT}?dryRun=1`, { data: { mcpServers: {} }, headers: h })).status(),
    ).toBe(200);
  } finally {
    await context.close();
  }
});
