import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, assistantMessages, chooseRowAction, originHeaders, send, signIn } from './helpers';

const FIXTURE = resolve('e2e/fixtures/test-mcp-server.mjs');
const CREATED = ['added', 'imp-one', 'imp-two'];

const row = (page: Page, name: string) => page.locator(`[data-server-row="${name}"]`);
const badge = (page: Page, name: string) => row(page, name).locator('[data-status]');

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
});

/** Later specs resolve `[[tool:add]]` by suffix: leave only the servers they expect. */
test.afterAll(async ({ browser }) => {
  const context = await browser.newContext();
  await signIn(context, ADMIN);
  const servers = (await (await context.request.get('/api/mcp/servers')).json()).items as Array<{
    id: string;
    name: string;
  }>;
  for (const server of servers.filter((s) => CREATED.includes(s.name))) {
    await context.request.delete(`/api/mcp/servers/${server.id}`, { headers: originHeaders() });
  }
  await context.close();
});

test('add a stdio server: the command preview, a passing test, save; it connects and its tool runs in a chat', async ({
  page,
}) => {
  await page.goto('/admin/mcp');
  await expect(badge(page, 'tests')).toBeVisible();
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByRole('dialog', { name: 'Add server' });
  await form.getByLabel('Transport').selectOption('stdio');
  await form.getByLabel('Name', { exact: true }).fill('added');
  // One connection for everyone, so it connects (and shows its status) as soon as it is saved.
  await form.getByLabel('Connection').selectOption('shared');
  await form.getByLabel('Command', { exact: true }).fill('node');
  await form.getByLabel('Arguments (one per line)').fill(`${FIXTURE}\nstdio`);
  const preview = form.locator('[data-command-preview]');
  await expect(preview).toContainText(FIXTURE);
  await expect(preview).toHaveText(`node ${FIXTURE} stdio`);

  await form.getByRole('button', { name: 'Test connection' }).click();
  const result = form.locator('[data-test-result]');
  await expect(result).toHaveAttribute('data-ok', 'true', { timeout: 20_000 });
  await expect(result.getByText('add', { exact: true })).toBeVisible();

  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(badge(page, 'added')).toHaveAttribute('data-status', 'connected', { timeout: 20_000 });
  await expect(row(page, 'added').locator('[data-tool-count]')).not.toHaveText('0');

  await page.goto('/');
  await send(page, 'Sum [[tool:added__add:{"a":1,"b":2}]]');
  const card = assistantMessages(page).last().locator('[data-tool-call][data-server="added"]');
  await expect(card).toHaveAttribute('data-tool-name', 'add');
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card.locator('[data-tool-output]')).toContainText('3');
});

test('a command that does not exist: the test shows ENOENT, and after saving only that server is in error', async ({
  page,
}) => {
  await page.goto('/admin/mcp');
  await chooseRowAction(page, 'added', 'Edit');
  const form = page.getByRole('dialog', { name: 'Edit server added' });
  await expect(form.getByLabel('Arguments (one per line)')).toHaveValue(`${FIXTURE}\nstdio`);
  await form.getByLabel('Command', { exact: true }).fill('definitely-not-a-command-xyz');
  await expect(form.locator('[data-command-preview]')).toHaveText(
    `definitely-not-a-command-xyz ${FIXTURE} stdio`,
  );

  await form.getByRole('button', { name: 'Test connection' }).click();
  const result = form.locator('[data-test-result]');
  await expect(result).toHaveAttribute('data-ok', 'false', { timeout: 20_000 });
  await expect(result).toContainText('ENOENT');

  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(badge(page, 'added')).toHaveAttribute('data-status', 'error', { timeout: 20_000 });
  await expect(row(page, 'added').locator('[data-last-error]')).toContainText('ENOENT');
  await expect(badge(page, 'tests')).toHaveAttribute('data-status', 'connected');
});

test('import a Claude Desktop config: the preview lists both servers, Apply adds them', async ({ page }) => {
  const config = {
    mcpServers: {
      'imp-one': { command: 'node', args: [FIXTURE, 'stdio'] },
      'imp-two': { type: 'http', url: 'http://127.0.0.1:9/mcp' },
    },
  };
  await page.goto('/admin/mcp');
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import MCP servers' });
  await dialog.getByLabel('Config file').setInputFiles({
    name: 'claude_desktop_config.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(config, null, 2)),
  });
  await expect(dialog.getByLabel('Claude Desktop config (JSON)')).toHaveValue(/imp-two/);

  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByRole('region', { name: 'Will be added' }).getByRole('listitem')).toHaveText([
    'imp-one',
    'imp-two',
  ]);
  await expect(dialog.getByRole('region', { name: 'Will be updated' })).toContainText('None');
  await expect(row(page, 'imp-one')).toHaveCount(0);

  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, 'imp-one')).toBeVisible();
  await expect(row(page, 'imp-two')).toBeVisible();
});

test('invalid JSON in the import box is an inline alert, not a broken page', async ({ page }) => {
  await page.goto('/admin/mcp');
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import MCP servers' });
  await dialog.getByLabel('Claude Desktop config (JSON)').fill('{ "mcpServers": { oops');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Invalid JSON');
  await expect(dialog.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(badge(page, 'tests')).toBeVisible();
});

test('the servers table at 1280 px keeps every name on one line, actions in one menu; on a phone each row is a card', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/mcp');
  await expect(badge(page, 'tests')).toBeVisible();
  const names = page.locator('[data-server-row] a');
  expect(await names.count()).toBeGreaterThan(1);
  // A name broken mid-word ("calcula tor") is an inline link drawn in two boxes.
  expect(
    await names.evaluateAll((links) => links.map((a) => [a.textContent, a.getClientRects().length])),
  ).toEqual(await names.evaluateAll((links) => links.map((a) => [a.textContent, 1])));
  const heights = await page
    .locator('[data-server-row]')
    .evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
  // Rows without an error message are one line of text: the actions no longer stack.
  expect(Math.min(...heights)).toBeLessThan(80);

  await page.setViewportSize({ width: 390, height: 844 });
  const tests = row(page, 'tests');
  await expect(tests).toHaveCSS('display', 'block');
  const actions = tests.getByRole('button', { name: 'Actions for tests' });
  await actions.scrollIntoViewIfNeeded();
  await expect(actions).toBeInViewport();
  // Inside its card, not pushed past the screen's edge.
  const [card, button] = [await tests.boundingBox(), await actions.boundingBox()];
  expect(button && card && button.x + button.width <= Math.min(card.x + card.width, 390)).toBe(true);
  await chooseRowAction(page, 'tests', 'Edit');
  await expect(page.getByRole('dialog', { name: 'Edit server tests' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Edit server tests' })).toBeHidden();
  // The menu opens from the keyboard too, and Escape gives the focus back to its button.
  await tests.getByRole('button', { name: 'Actions for tests' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Disable' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(tests.getByRole('button', { name: 'Actions for tests' })).toBeFocused();
});
