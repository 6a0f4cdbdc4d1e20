import { expect, type Page, test } from '@playwright/test';
import { ADMIN, assistantMessages, conversationIdFromUrl, send, signIn } from './helpers';

const card = (page: Page, tool: string) =>
  assistantMessages(page).last().locator(`[data-tool-call][data-tool-name="${tool}"]`);

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/');
});

test('a question runs an MCP tool: card, result, final answer; a reload shows the card as it was', async ({
  page,
}) => {
  await send(page, 'What is 2+3? [[tool:add:{"a":2,"b":3}]]');
  const add = card(page, 'add');
  await expect(add).toHaveAttribute('data-server', 'tests');
  await expect(add).toHaveAttribute('data-state', 'done');
  await expect(add.locator('[data-tool-output]')).toContainText('5');
  await expect(assistantMessages(page).last()).toContainText('Tool results: 5');
  await expect(assistantMessages(page).last().locator('[data-tool-chain]')).toHaveText('tests.add ✓');
  await page.reload();
  await expect(card(page, 'add')).toHaveAttribute('data-state', 'done');
  await expect(card(page, 'add').locator('[data-tool-args]')).toContainText('"a": 2', {
    useInnerText: false,
  });
  await expect(assistantMessages(page).last()).toContainText('Tool results: 5');
});

test('parallel calls in one step, and the built-in calculator', async ({ page }) => {
  await send(page, 'Both [[tool:add:{"a":40,"b":2}]] [[tool:evaluate:{"expression":"0.1 + 0.2"}]]');
  await expect(card(page, 'add')).toHaveAttribute('data-state', 'done');
  const calc = card(page, 'evaluate');
  await expect(calc).toHaveAttribute('data-server', 'calculator');
  await expect(calc).toHaveAttribute('data-state', 'done');
  await expect(calc.locator('[data-tool-output]')).toContainText('0.3');
  await expect(assistantMessages(page).last()).toContainText('42');
});

test('a mutating tool waits for approval; Approve runs it', async ({ page }) => {
  await send(page, 'Clean up [[tool:delete_all]]');
  const del = card(page, 'delete_all');
  await expect(del).toHaveAttribute('data-state', 'awaiting-approval');
  await expect(del).toContainText('tests');
  await del.getByRole('button', { name: 'Approve' }).click();
  await expect(del).toHaveAttribute('data-state', 'done');
  await expect(assistantMessages(page).last()).toContainText('Tool results: deleted everything');
  await page.reload();
  await expect(card(page, 'delete_all')).toHaveAttribute('data-state', 'done');
});

test('Deny sends a denial back to the model, and nothing runs', async ({ page }) => {
  await send(page, 'Clean up again [[tool:delete_all]]');
  const del = card(page, 'delete_all');
  await del.getByRole('button', { name: 'Deny' }).click();
  await expect(del).toHaveAttribute('data-state', 'denied');
  await expect(assistantMessages(page).last()).toContainText('Tool results:');
  await expect(assistantMessages(page).last()).not.toContainText('deleted everything');
  await page.reload();
  await expect(card(page, 'delete_all')).toHaveAttribute('data-state', 'denied');
});

test('a crashing tool gives an error card, the answer goes on, and the next call reconnects', async ({
  page,
}) => {
  await send(page, 'Crash it [[tool:crash]]');
  const crash = card(page, 'crash');
  await crash.getByRole('button', { name: 'Approve' }).click();
  await expect(crash).toHaveAttribute('data-state', 'error');
  await expect(crash.locator('[data-tool-error]')).toContainText(/connection|closed/i);
  await expect(assistantMessages(page).last()).toContainText('Tool results:');
  await send(page, 'Again [[tool:add:{"a":1,"b":1}]]');
  await expect(card(page, 'add')).toHaveAttribute('data-state', 'done');
  await expect(card(page, 'add').locator('[data-tool-output]')).toContainText('2');
});

test("a stdio server never sees the app's secrets in its environment", async ({ page }) => {
  await send(page, 'Env [[tool:env:{"name":"OPENAI_API_KEY"}]] [[tool:env:{"name":"TEST_SERVER_GREETING"}]]');
  const outputs = assistantMessages(page).last().locator('[data-tool-output]');
  await expect(outputs).toHaveCount(2);
  await expect(outputs.first()).toHaveText('(unset)');
  await expect(outputs.last()).toHaveText('hello from the e2e config');
});

test('a slow tool shows progress while running; Stop cancels it and the card says so', async ({ page }) => {
  await send(page, 'Slow [[tool:sleep:{"ms":8000,"steps":8}]]');
  const sleep = card(page, 'sleep');
  await expect(sleep).toHaveAttribute('data-state', 'running');
  await expect(sleep.getByRole('progressbar')).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(sleep).toHaveAttribute('data-state', 'cancelled');
  const id = conversationIdFromUrl(page);
  await expect
    .poll(async () => (await (await page.request.get(`/api/conversations/${id}`)).json()).messages.length)
    .toBe(2);
  await page.reload();
  await expect(card(page, 'sleep')).toHaveAttribute('data-state', 'cancelled');
  await expect(assistantMessages(page).last().locator('[data-interrupted]')).toBeVisible();
});
