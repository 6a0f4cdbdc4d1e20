import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ADMIN, assistantMessages, originHeaders, send, signIn } from './helpers';

const toolCard = (page: Page, tool: string) => page.locator(`[data-tool-admin][data-tool-name="${tool}"]`);
const approval = (page: Page, tool: string) => page.getByLabel(`Approval for ${tool}`, { exact: true });
const enabled = (page: Page, tool: string) => page.getByLabel(`Enabled ${tool}`, { exact: true });
const toolPatched = (page: Page, tool: string) =>
  page.waitForResponse(
    (r) =>
      r.request().method() === 'PATCH' && r.url().endsWith(`/tools/${encodeURIComponent(tool)}`) && r.ok(),
  );

async function testsServerId(request: APIRequestContext): Promise<string> {
  const servers = (await (await request.get('/api/mcp/servers')).json()).items as Array<{
    id: string;
    name: string;
  }>;
  const tests = servers.find((s) => s.name === 'tests');
  if (!tests) throw new Error('the e2e config registers a server named "tests"');
  return tests.id;
}

/** Sends `text`, whose tool call (`tool`) asks first; approves it and waits until it ran. */
async function callApproved(page: Page, text: string, tool: string) {
  await send(page, text);
  const call = assistantMessages(page).last().locator(`[data-tool-call][data-tool-name="${tool}"]`);
  await expect(call).toHaveAttribute('data-state', 'awaiting-approval');
  await call.getByRole('button', { name: 'Approve' }).click();
  await expect(call).toHaveAttribute('data-state', 'done');
}

let serverId = '';

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
  serverId ||= await testsServerId(page.request);
});

/** Leave `tests` as later specs expect it: a fresh process (echo's original text), echo enabled and auto, sleep auto, delete_all asking. */
test.afterAll(async ({ browser }) => {
  const context = await browser.newContext();
  await signIn(context, ADMIN);
  const { request } = context;
  const id = await testsServerId(request);
  const at = `/api/mcp/servers/${id}`;
  await request.patch(at, { data: { enabled: false }, headers: originHeaders() });
  await request.patch(at, { data: { enabled: true }, headers: originHeaders() });
  await expect
    .poll(async () => (await (await request.get(at)).json()).status.status, { timeout: 20_000 })
    .toBe('connected');
  await request.patch(`${at}/tools/echo`, {
    data: { enabled: true, approval: 'auto' },
    headers: originHeaders(),
  });
  await request.patch(`${at}/tools/delete_all`, { data: { approval: 'ask' }, headers: originHeaders() });
  // sleep's annotations were changed and reviewed: the fresh process's are accepted again, with its policy.
  await request.patch(`${at}/tools/sleep`, { data: { approval: 'auto' }, headers: originHeaders() });
  await context.close();
});

test('the detail page shows each tool in full, with its approval policy from the annotations', async ({
  page,
}) => {
  await page.goto(`/admin/mcp/${serverId}`);
  await expect(page.getByRole('heading', { name: 'tests', level: 1 })).toBeVisible();
  await expect(page.locator('[data-status]').first()).toHaveAttribute('data-status', 'connected');
  const echo = toolCard(page, 'echo');
  await expect(echo.locator('[data-tool-description]')).toHaveText('Echo the given message back unchanged.');
  const schema = echo.locator('[data-tool-schema]');
  await expect(schema).toContainText('"message"');
  await expect(schema).toContainText('Text to echo back');
  await expect(echo.locator('[data-annotation="readOnlyHint"]')).toBeVisible();
  await expect(approval(page, 'add')).toHaveValue('auto');
  await expect(approval(page, 'delete_all')).toHaveValue('ask');
  await expect(page.locator('[data-resource="test://docs/readme"]')).toBeVisible();
  await expect(page.locator('[data-prompt="greeting"]')).toContainText('name');
  await expect(page.getByRole('link', { name: /Back to servers/ })).toHaveAttribute('href', '/admin/mcp');
});

test('approval and enabled changes persist across a reload', async ({ page }) => {
  await page.goto(`/admin/mcp/${serverId}`);
  await Promise.all([toolPatched(page, 'delete_all'), approval(page, 'delete_all').selectOption('auto')]);
  await Promise.all([toolPatched(page, 'echo'), enabled(page, 'echo').uncheck()]);
  await page.reload();
  await expect(approval(page, 'delete_all')).toHaveValue('auto');
  await expect(enabled(page, 'echo')).not.toBeChecked();

  await Promise.all([toolPatched(page, 'delete_all'), approval(page, 'delete_all').selectOption('ask')]);
  await Promise.all([toolPatched(page, 'echo'), enabled(page, 'echo').check()]);
  await page.reload();
  await expect(approval(page, 'delete_all')).toHaveValue('ask');
  await expect(enabled(page, 'echo')).toBeChecked();
});

test('S6: a changed definition is flagged with a diff, its old approval is not reused (a call asks again) until marked reviewed; the logs list the call', async ({
  page,
}) => {
  await page.goto('/');
  await callApproved(page, 'Change [[tool:change_tools]]', 'change_tools');

  await page.goto(`/admin/mcp/${serverId}`);
  const echo = toolCard(page, 'echo');
  await expect(echo.locator('[data-changed]')).toBeVisible({ timeout: 15_000 });
  await expect(echo).toContainText(
    "This tool's definition changed since it was last reviewed; it needs approval again.",
  );
  const diff = echo.locator('[data-definition-diff]');
  await expect(diff).toContainText('Echo (changed)');
  await expect(diff.locator('[data-diff-line="removed"]').first()).toContainText(
    'Echo the given message back unchanged.',
  );
  await expect(diff.locator('[data-diff-line="added"]').first()).toContainText('Echo (changed)');
  await expect(echo.locator('[data-tool-description]')).toHaveText('Echo (changed)');
  await expect(approval(page, 'echo')).toHaveValue('ask');

  // The approval given to the old definition is not reused: a call now waits for the user.
  await page.goto('/');
  await send(page, 'Echo [[tool:tests__echo:{"message":"after the change"}]]');
  const echoCall = assistantMessages(page).last().locator('[data-tool-call][data-tool-name="echo"]');
  await expect(echoCall).toHaveAttribute('data-state', 'awaiting-approval');
  await expect(echoCall.locator('[data-tool-args]')).toContainText('after the change');
  await echoCall.getByRole('button', { name: 'Deny' }).click();
  await expect(echoCall).toHaveAttribute('data-state', 'denied');
  await page.goto(`/admin/mcp/${serverId}`);
  await expect(echo.locator('[data-changed]')).toBeVisible();

  await Promise.all([toolPatched(page, 'echo'), echo.getByRole('button', { name: 'Mark reviewed' }).click()]);
  await expect(echo.locator('[data-changed]')).toHaveCount(0);
  await page.reload();
  await expect(toolCard(page, 'echo').locator('[data-tool-description]')).toHaveText('Echo (changed)');
  await expect(toolCard(page, 'echo').locator('[data-changed]')).toHaveCount(0);

  await expect(page.locator('[data-stderr]')).toBeVisible();
  const call = page.locator('[data-calls] [data-call][data-tool-name="change_tools"]').first();
  await expect(call).toHaveAttribute('data-outcome', 'ok');
  await expect(call).toContainText('ok');
});

test('a change of annotations alone (the hints that decide whether a call asks first) is shown in the diff, not as "unchanged"', async ({
  page,
}) => {
  await page.goto('/');
  const annotate = {
    annotate: [{ name: 'sleep', annotations: { readOnlyHint: false, destructiveHint: true } }],
  };
  await callApproved(page, `Annotate [[tool:tests__retool:${JSON.stringify(annotate)}]]`, 'retool');

  await page.goto(`/admin/mcp/${serverId}`);
  const sleep = toolCard(page, 'sleep');
  await expect(sleep.locator('[data-changed]')).toBeVisible({ timeout: 15_000 });
  const diff = sleep.locator('[data-definition-diff]');
  await expect(diff).toContainText('Description (unchanged)');
  await expect(diff).toContainText('Input schema (unchanged)');
  await expect(diff.locator('[data-diff-line="removed"]')).toContainText(['"readOnlyHint": true']);
  await expect(diff.locator('[data-diff-line="added"]')).toContainText([
    '"readOnlyHint": false',
    '"destructiveHint": true',
  ]);
  await Promise.all([
    toolPatched(page, 'sleep'),
    sleep.getByRole('button', { name: 'Mark reviewed' }).click(),
  ]);
  await expect(sleep.locator('[data-changed]')).toHaveCount(0);
});
