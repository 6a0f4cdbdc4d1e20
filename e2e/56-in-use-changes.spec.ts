// Admin changes while a user uses what changed (the admin in one browser context, the user in another):
// an MCP server deleted or switched off while one of its tool calls awaits the user's approval.
import { resolve } from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
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
