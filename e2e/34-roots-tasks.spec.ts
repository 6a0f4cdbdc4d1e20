// Issue 16: roots (per server, the user's own folder, list_changed on change), the admin's sampling
// setting, and tools that run as MCP tasks. The test MCP server runs as a real stdio child
// (TEST_MCP_RICH=1).
import { type BrowserContext, expect, test } from '@playwright/test';
import {
  ADMIN,
  chooseRowAction,
  ensureUser,
  originHeaders,
  sendAllTools,
  signIn,
  specUser,
  streamChunks,
} from './helpers';
import { card, openChat, rich, toolText } from './rich-chat';

const BOB = specUser('s34', 'Bob User');
const h = originHeaders();

let admin: BrowserContext;
let bob: BrowserContext;
const ids: string[] = [];
let restoreToolSearch: () => Promise<void>;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  bob = await browser.newContext();
  await signIn(bob, BOB);
  // Three more rich servers put the catalog past the tool search budget; these tests call tools directly.
  restoreToolSearch = await sendAllTools(admin.request);
  for (const config of [
    rich('t34ask'),
    rich('t34auto', { sampling: 'auto' }),
    rich('t34roots', { roots: ['file:///srv/team-docs'] }),
  ]) {
    const res = await admin.request.post('/api/mcp/servers', { data: config, headers: h });
    expect(res.status(), await res.text()).toBe(201);
    ids.push((await res.json()).id);
  }
});

test.afterAll(async () => {
  for (const id of ids) await admin.request.delete(`/api/mcp/servers/${id}`, { headers: h });
  await restoreToolSearch();
  await Promise.all([admin.close(), bob.close()]);
});

test('roots: a per-user server gets the user’s own folder first, then the admin’s roots', async () => {
  const res = await bob.request.post('/api/chat', {
    data: {
      id: `t34r-${Date.now()}`,
      message: {
        id: `t34r-${Date.now()}-m`,
        role: 'user',
        parts: [{ type: 'text', text: '[[tool:t34roots__list_roots]]' }],
      },
    },
    headers: h,
  });
  const chunks = streamChunks(await res.text());
  const output = chunks.find((c) => c.type === 'tool-output-available')?.output as {
    content: Array<{ text: string }>;
  };
  const roots = JSON.parse((output.content[0]?.text ?? '').replace(/^Roots: /, '')) as Array<{ uri: string }>;
  expect(roots).toHaveLength(2);
  expect(roots[0]?.uri).toMatch(/^file:\/\/\/.*\/mcp-users\/[^/]+\/t34roots$/);
  expect(roots[1]?.uri).toBe('file:///srv/team-docs');
});

test('admin: roots are validated; changing them tells a running server (list_changed), no restart', async () => {
  const bad = await admin.request.post('/api/mcp/servers', {
    data: rich('t34badroot', { roots: ['/srv/not-a-uri'] }),
    headers: h,
  });
  expect(bad.status()).toBe(400);
  expect(JSON.stringify(await bad.json())).toContain('must be a file URI');

  // Bob's own connection to t34roots is running (the roots test above started it).
  expect(await toolText(bob, 't34roots', 'roots_changes')).toBe('Roots changed 0 times');
  const page = await admin.newPage();
  await page.goto('/admin/mcp');
  await chooseRowAction(page, 't34roots', 'Edit');
  const form = page.getByRole('dialog', { name: 'Edit server t34roots' });
  const roots = form.getByLabel('Roots (one file URI per line)');
  await expect(roots).toHaveValue('file:///srv/team-docs');
  await roots.fill('file:///srv/team-docs\nnot a uri');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toContainText('must be a file URI');
  await roots.fill('file:///srv/team-docs\nfile:///srv/more');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect.poll(() => toolText(bob, 't34roots', 'roots_changes')).toBe('Roots changed 1 times');
  expect(await toolText(bob, 't34roots', 'list_roots')).toContain('"uri":"file:///srv/more"');

  // "Never sample": saved, exported, and the server is told the host does not sample.
  await chooseRowAction(page, 't34auto', 'Edit');
  const auto = page.getByRole('dialog', { name: 'Edit server t34auto' });
  await expect(auto.getByLabel('Sampling (the server asks the model)')).toHaveValue('auto');
  await auto.getByLabel('Sampling (the server asks the model)').selectOption('never');
  await auto.getByRole('button', { name: 'Save' }).click();
  await expect(auto).toBeHidden();
  expect(await toolText(bob, 't34auto', 'summarize', { text: 'x' })).toMatch(
    /Sampling failed: .*Method not found/,
  );
  await page.close();
});

test('tasks: a tool that requires a task shows its progress and finishes', async () => {
  const page = await openChat(bob, '[[tool:t34ask__slow_report:{"topic":"q3"}]]');
  const tool = card(page, 'slow_report');
  await expect(tool.getByText(/Gathering…|Writing…|Checking…/)).toBeVisible();
  await expect(tool).toHaveAttribute('data-state', 'done');
  await expect(tool.locator('[data-tool-output]')).toHaveText('Report ready: q3');
  await page.close();
});
