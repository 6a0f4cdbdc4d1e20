import { expect, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import { ADMIN, assistantMessages, fakeModelRequests, originHeaders, send, signIn } from './helpers';

test('a model in prompt mode calls MCP tools through <tool_use> text: normal cards, no raw tags, no tools field', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  const created = await page.request.post('/api/admin/providers', {
    data: {
      name: 'promptfake',
      baseURL: `${FAKE_MODEL_URL}/v1`,
      models: ['fake-model'],
      toolCalling: 'prompt',
    },
    headers: originHeaders(),
  });
  expect([201, 409]).toContain(created.status());
  await page.request.delete(`${FAKE_MODEL_URL}/requests`);

  await page.goto('/');
  await page.getByLabel('Model').selectOption('promptfake/fake-model');
  await send(page, 'Add these [[tooltext:add:{"a":20,"b":22}]]');
  const card = assistantMessages(page).last().locator('[data-tool-call][data-tool-name="add"]');
  await expect(card).toHaveAttribute('data-server', 'tests');
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card.locator('[data-tool-output]')).toContainText('42');
  await expect(assistantMessages(page).last()).toContainText('Tool results: 42');
  await expect(assistantMessages(page).last()).toContainText('Let me check.');
  await expect(page.locator('main')).not.toContainText('<tool_use');
  await expect(page.locator('main')).not.toContainText('</arguments>');

  const requests = await fakeModelRequests(page.request);
  expect(requests.length).toBeGreaterThanOrEqual(2);
  for (const r of requests) expect(r.body.tools).toBeUndefined();
  const system = JSON.stringify(requests[0]?.body.messages[0]);
  expect(system).toContain('tool_use');
  expect(system).toContain('tests__add');
  expect(JSON.stringify(requests.at(-1)?.body.messages)).toContain('<tool_result name=\\"tests__add\\">');

  // The stored conversation is the same shape as with native tools: a reload shows the card.
  await page.reload();
  await expect(
    assistantMessages(page).last().locator('[data-tool-call][data-tool-name="add"]'),
  ).toHaveAttribute('data-state', 'done');
});
