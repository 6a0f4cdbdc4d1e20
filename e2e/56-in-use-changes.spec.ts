// Admin changes while a user uses what changed (the admin in one browser context, the user in another):
// a model removed from the provider the user's conversation has chosen, an MCP server deleted or switched
// off while one of its tool calls awaits the user's approval.
import { resolve } from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import { ADMIN, assistantMessages, ensureUser, originHeaders, send, signIn, specUser } from './helpers';

const h = originHeaders();
const UNA = specUser('s56', 'Una User');
let admin: BrowserContext;
let una: BrowserContext;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, UNA);
  una = await browser.newContext();
  await signIn(una, UNA);
});

test.afterAll(async () => {
  await Promise.all([admin.close(), una.close()]);
});

const card = (page: Page) => assistantMessages(page).last().locator('[data-tool-call]');

test('a model the admin removes while the page is open: a clear refusal, the picker falls back, Retry answers', async () => {
  const created = await admin.request.post('/api/admin/providers', {
    data: { name: 's56prov', baseURL: `${FAKE_MODEL_URL}/v1`, models: ['fake-model', 'fake-model-2'] },
    headers: h,
  });
  expect(created.status(), await created.text()).toBe(201);
  const providerId = (await created.json()).id as string;
  try {
    const page = await una.newPage();
    await page.goto('/');
    const picker = page.getByRole('combobox', { name: 'Model' });
    await picker.selectOption('s56prov/fake-model-2');
    await send(page, 'first s56-model');
    await expect(assistantMessages(page).last()).toContainText('You said: first s56-model');

    const patched = await admin.request.patch(`/api/admin/providers/${providerId}`, {
      data: { models: ['fake-model'] },
      headers: h,
    });
    expect(patched.status(), await patched.text()).toBe(200);

    await send(page, 'second s56-model');
    await expect(page.locator('[data-chat-error]')).toContainText(
      'Model "s56prov/fake-model-2" is not available (it may have been removed or limited). Pick another model.',
    );
    // The picker no longer offers the removed model and has fallen back to one still offered.
    await expect(picker.locator('option[value="s56prov/fake-model-2"]')).toHaveCount(0);
    const fallback = await picker.locator('option').first().getAttribute('value');
    await expect(picker).toHaveValue(fallback ?? '');
    await page.locator('[data-chat-error]').getByRole('button', { name: 'Retry' }).click();
    await expect(assistantMessages(page).last()).toContainText('You said: second s56-model');
    await expect(page.locator('[data-chat-error]')).toHaveCount(0);
  } finally {
    await admin.request.delete(`/api/admin/providers/${providerId}`, { headers: h });
  }
});

for (const change of ['deleted', 'switched off'] as const) {
  test(`an MCP server ${change} while its tool call awaits approval: Approve ends in a tool error and the answer finishes`, async () => {
    const name = change === 'deleted' ? 's56gone' : 's56off';
    const created = await admin.request.post('/api/mcp/servers', {
      data: {
        name,
        transport: 'stdio',
        command: 'node',
        args: [resolve('e2e/fixtures/test-mcp-server.mjs'), 'stdio'],
        scope: 'shared',
      },
      headers: h,
    });
    expect(created.status(), await created.text()).toBe(201);
    const serverId = (await created.json()).id as string;
    try {
      const page = await una.newPage();
      await page.goto('/');
      await send(page, `Clean up s56 [[tool:${name}__delete_all]]`);
      await expect(card(page)).toHaveAttribute('data-state', 'awaiting-approval');

      const changed =
        change === 'deleted'
          ? await admin.request.delete(`/api/mcp/servers/${serverId}`, { headers: h })
          : await admin.request.patch(`/api/mcp/servers/${serverId}`, {
              data: { enabled: false },
              headers: h,
            });
      expect(changed.ok()).toBe(true);

      await card(page).getByRole('button', { name: 'Approve' }).click();
      for (const round of ['live', 'reloaded']) {
        await expect(card(page), round).toHaveAttribute('data-state', 'error');
        await expect(card(page).locator('[data-tool-error]'), round).toContainText(
          `Could not run ${name}.delete_all: it is no longer available`,
        );
        await expect(assistantMessages(page).last(), round).toContainText('Tool results:');
        await expect(page.locator('[data-chat-error]'), round).toHaveCount(0);
        if (round === 'live') await page.reload();
      }
    } finally {
      await admin.request.delete(`/api/mcp/servers/${serverId}`, { headers: h });
    }
  });
}
