import { expect, type Page, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import {
  ADMIN,
  assistantMessages,
  composer,
  conversationIdFromUrl,
  fakeModelRequests,
  send,
  signIn,
} from './helpers';

type LoggedBody = { messages: unknown[]; tools?: unknown[]; tool_choice?: unknown };

const toolsButton = (page: Page) => page.getByRole('button', { name: /^Tools · / });

async function modelRequests(page: Page): Promise<LoggedBody[]> {
  return (await fakeModelRequests(page.request)).map((r) => r.body as LoggedBody);
}

/** Waits until the model was asked at least `min` times and the answer has finished streaming. */
async function answered(page: Page, min = 1) {
  await expect.poll(async () => (await modelRequests(page)).length).toBeGreaterThanOrEqual(min);
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
  await page.request.delete(`${FAKE_MODEL_URL}/requests`);
  await page.goto('/');
});

test('mode Off from the Tools menu: the model gets no tools, and no tool runs', async ({ page }) => {
  const settings = page.getByRole('dialog', { name: 'Tool settings' });
  // The button is in the server's HTML; it opens the menu once the page has hydrated.
  await expect(async () => {
    if (!(await settings.isVisible())) await toolsButton(page).click();
    await expect(settings).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await expect(settings.getByRole('checkbox', { name: 'tests', exact: true })).toBeChecked();
  await settings.getByRole('radio', { name: 'Off' }).check();
  await expect(toolsButton(page)).toHaveText('Tools · Off');
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();

  await send(page, 'hello [[tool:add:{"a":1,"b":2}]]');
  await answered(page);
  const requests = await modelRequests(page);
  expect(requests.at(-1)).not.toHaveProperty('tools');
  await expect(page.locator('[data-tool-call][data-state="done"]')).toHaveCount(0);

  // The mode is the conversation's: stored, and shown again after a reload.
  const id = conversationIdFromUrl(page);
  expect((await (await page.request.get(`/api/conversations/${id}`)).json()).toolMode).toBe('off');
  await page.reload();
  await expect(toolsButton(page)).toHaveText('Tools · Off');
});

test('"/mode required" + Enter: nothing is sent; the first step must call a tool, later steps may answer', async ({
  page,
}) => {
  const box = composer(page);
  await box.fill('/mode required');
  await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(1);
  await box.press('Enter');
  await expect(box).toHaveValue('');
  await expect(toolsButton(page)).toHaveText(/^Tools · Required/);
  await expect(page.locator('[data-role="user"]')).toHaveCount(0);
  expect(await modelRequests(page)).toHaveLength(0);

  await send(page, 'Add [[tool:add:{"a":2,"b":2}]]');
  const card = assistantMessages(page).last().locator('[data-tool-call][data-tool-name="add"]');
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(assistantMessages(page).last()).toContainText('Tool results: 4');
  await answered(page, 2);
  const requests = await modelRequests(page);
  expect(requests.length).toBeGreaterThanOrEqual(2);
  expect(requests[0]?.tool_choice).toBe('required');
  expect([undefined, 'auto']).toContain(requests.at(-1)?.tool_choice);
});

test('the / menu offers MCP prompts: arguments with completions, then the text lands in the box unsent', async ({
  page,
}) => {
  const box = composer(page);
  await box.fill('/');
  const menu = page.getByRole('listbox', { name: 'Commands' });
  await expect(menu.getByRole('option', { name: /^\/tools/ })).toBeVisible();
  await expect(menu.getByRole('option', { name: /^\/help/ })).toBeVisible();
  const greeting = menu.getByRole('option', { name: /^\/tests:greeting/ });
  await expect(greeting).toBeVisible();
  await greeting.click();

  const dialog = page.getByRole('dialog', { name: 'Arguments for tests:greeting' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: /^name/ }).fill('Gr');
  await expect(dialog.getByRole('option', { name: 'Grace' })).toBeVisible();
  await expect(dialog.getByRole('option', { name: 'Ada' })).toHaveCount(0);
  await dialog.getByRole('option', { name: 'Grace' }).click();
  await expect(dialog.getByRole('combobox', { name: /^name/ })).toHaveValue('Grace');
  await dialog.getByRole('button', { name: 'Insert' }).click();

  await expect(dialog).toBeHidden();
  await expect(box).toHaveValue('Say hello to Grace');
  await expect(page.locator('[data-role="user"]')).toHaveCount(0);
  expect(await modelRequests(page)).toHaveLength(0);
});

test('@ attaches an MCP resource: a chip, the model reads its text, the message keeps the chip', async ({
  page,
}) => {
  const box = composer(page);
  await box.fill('@');
  const picker = page.getByRole('listbox', { name: 'Resources' });
  // A template is offered as a template (filled in by its own dialog: e2e/31), not as a URI.
  await expect(picker.getByRole('option', { name: /^item/ })).toContainText('test://items/{id} (template)');
  await box.press('r');
  await picker.getByRole('option', { name: /^readme/ }).click();
  await expect(picker).toBeHidden();
  await expect(box).toHaveValue('');
  const chip = page.locator('[data-composer] [data-resource-chip="test://docs/readme"]');
  await expect(chip).toContainText('readme');
  await expect(chip.getByRole('button', { name: 'Remove readme' })).toBeVisible();

  await send(page, 'what is the secret word?');
  await answered(page);
  await expect(chip).toHaveCount(0);
  await expect
    .poll(async () => JSON.stringify((await modelRequests(page)).at(-1)?.messages ?? []))
    .toContain('pineapple');

  await page.reload();
  const user = page.locator('[data-role="user"]').last();
  await expect(user).toContainText('what is the secret word?');
  await expect(user.locator('[data-resource-chip="test://docs/readme"]')).toContainText('readme');
});
