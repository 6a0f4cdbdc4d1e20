// Issue 21: MCP Apps. A tool's UI resource renders inside its tool card in a sandboxed iframe on an opaque
// origin (the host's sandbox proxy, the app inside it), talks to the host through the extension's bridge,
// calls tools through the model's gates (approval card for "ask"), shares context and sends messages that
// are stored and shown as the app's, and comes back after a reload. Full screen, it is a modal dialog
// (focus in and back, Tab kept inside) that keeps the app's state and the page behind as they were. The
// app is a real MCP App (e2e/fixtures/test-mcp-server-apps.mjs, built with the extension's App class) on a
// real stdio server.
// Layout, theme, a broken app and the admin's settings are in e2e/52-mcp-apps-layout-admin.spec.ts; the
// shared setup is in e2e/mcp-apps-helpers.ts.
import { expect, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { composer, fakeModelRequests, userTexts } from './helpers';
import {
  admin,
  app,
  appName,
  appView,
  bob,
  carol,
  conversationOf,
  dashboard,
  focusIn,
  h,
  listTop,
  mcpAppsSpec,
  SERVER,
  serverId,
  tabAround,
} from './mcp-apps-helpers';
import { card } from './rich-chat';

mcpAppsSpec('s37');

test('the app renders in its tool card, sandboxed: no access to the host page, its cookies or storage; CSP blocks undeclared domains', async () => {
  // A cookie of the host page that scripts could read there (not HttpOnly): the app must not see it.
  await bob.addCookies([{ name: 'host-probe', value: 'secret', url: APP_URL }]);
  const page = await dashboard(bob);
  expect(await page.evaluate(() => document.cookie)).toContain('host-probe');
  const tool = card(page, 'show_dashboard');
  await expect(tool.locator('[data-tool-output]')).toContainText('Dashboard for fruit');
  const frame = tool.locator(`iframe[data-mcp-app="${SERVER}"]`);
  await expect(frame).toBeVisible();
  // Scripts, forms — never allow-same-origin.
  expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms');

  const view = app(page);
  await expect(view.locator('#input')).toHaveText('input: {"topic":"fruit"}');
  await expect(view.locator('#result')).toHaveText('result: Dashboard for fruit');
  await expect(view.locator('#theme')).toContainText(/theme: (light|dark) locale: en/);
  // The frame grows to the app's content (it starts at 160 px; the dashboard is taller).
  await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(250);
  // Opaque origins all the way down: the host's cookies, storage and DOM are out of reach.
  await expect(view.locator('#cookie')).toHaveText(/^cookie: (blocked|none)$/);
  await expect(view.locator('#storage')).toHaveText('storage: blocked');
  await expect(view.locator('#parent')).toHaveText('parent: blocked');
  await expect(view.locator('#top')).toHaveText('top: blocked');
  for (const f of page.frames().filter((f) => f !== page.mainFrame()))
    expect(await f.evaluate(() => self.origin)).toBe('null');
  // The host's API and an undeclared domain are blocked by the app's CSP.
  await expect(view.locator('#host-api')).toHaveText('host api: blocked');
  await expect(view.locator('#csp')).toHaveText('csp: blocked connect-src');
  // The camera and clipboard it asks for are not granted (the admin allowed none).
  await expect(view.locator('#camera')).toHaveText('camera: denied');
  await expect(view.locator('#clipboard')).toHaveText('clipboard: denied');
  await expect(tool).toContainText('Not allowed: camera, clipboardWrite');
  expect(await frame.getAttribute('allow')).toBe('');

  // The proxy page's policy: only the declared origin, never the host's.
  const proxy = await bob.request.get(
    `/api/mcp-apps/sandbox?csp=${encodeURIComponent(JSON.stringify({ connectDomains: ['https://allowed.example.com', "'self'"] }))}`,
  );
  const csp = proxy.headers()['content-security-policy'] ?? '';
  expect(csp).toContain('connect-src https://allowed.example.com;');
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain('sandbox allow-scripts allow-forms');

  // Another user cannot read the app through Bob's server, and the model never saw the app-only tool.
  const requests = await fakeModelRequests(bob.request);
  const toolNames = JSON.stringify(requests.at(-1)?.body.tools ?? []);
  expect(toolNames).toContain('show_dashboard');
  expect(toolNames).not.toContain('app_ping');
  await page.close();
});

test('tool calls from the app go through the gates: read-only runs, "ask" waits for the approval card', async () => {
  const page = await dashboard(bob);
  const view = app(page);
  const tool = card(page, 'show_dashboard');
  await view.getByRole('button', { name: 'Ping the server' }).click();
  await expect(view.locator('#ping')).toHaveText('ping: pong from the server');

  await view.getByRole('button', { name: 'Record an apple' }).click();
  const approval = tool.locator('[data-app-approval="app_record"]');
  await expect(approval).toBeVisible();
  await expect(approval).toContainText('"item": "apple"');
  await expect(view.locator('#record')).toHaveText('record: waiting');
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(view.locator('#record')).toHaveText('record: recorded apple');
  await expect(approval).toHaveCount(0);

  await view.getByRole('button', { name: 'Record an apple' }).click();
  await approval.getByRole('button', { name: 'Deny' }).click();
  await expect(view.locator('#record')).toHaveText('record: error: The user denied this call.');

  // The API holds the gate, not the page: no approval, no run; another user's conversation is not found.
  const conversationId = conversationOf(page);
  const call = { conversationId, server: SERVER, tool: 'app_record', arguments: { item: 'pear' } };
  const asked = await bob.request.post('/api/mcp-apps/call', { data: call, headers: h });
  expect(asked.status()).toBe(200);
  const { status, approvalId } = await asked.json();
  expect(status).toBe('approval-required');
  const other = await bob.request.post('/api/mcp-apps/call', {
    data: { ...call, arguments: { item: 'plum' }, approval: { id: approvalId, approved: true } },
    headers: h,
  });
  expect(other.status()).toBe(404);
  const reused = await bob.request.post('/api/mcp-apps/call', {
    data: { ...call, approval: { id: approvalId, approved: true } },
    headers: h,
  });
  expect(reused.status()).toBe(404);
  const foreign = await carol.request.post('/api/mcp-apps/call', { data: call, headers: h });
  expect(foreign.status()).toBe(404);
  const noOrigin = await bob.request.post('/api/mcp-apps/call', { data: call });
  expect(noOrigin.status()).toBe(403);

  // Set to "ask" by the admin, even the read-only tool waits for the card.
  const ask = await admin.request.patch(`/api/mcp/servers/${serverId}/tools/app_ping`, {
    data: { approval: 'ask' },
    headers: h,
  });
  expect(ask.status(), await ask.text()).toBe(200);
  await view.getByRole('button', { name: 'Ping the server' }).click();
  const pingApproval = tool.locator('[data-app-approval="app_ping"]');
  await expect(pingApproval).toBeVisible();
  await expect(view.locator('#ping')).toHaveText('ping: waiting');
  await pingApproval.getByRole('button', { name: 'Approve' }).click();
  await expect(view.locator('#ping')).toHaveText('ping: pong from the server');
  await admin.request.patch(`/api/mcp/servers/${serverId}/tools/app_ping`, {
    data: { approval: 'auto' },
    headers: h,
  });
  await page.close();
});

test('context and follow-up messages from the app are shown as the app’s, stored, and the app comes back after a reload', async () => {
  const page = await dashboard(bob, 'apples');
  const view = app(page);
  await view.getByRole('button', { name: 'Share context' }).click();
  await expect(view.locator('#shared')).toHaveText('context shared');
  await expect(page.locator(`[data-app-context-pending="${SERVER}"]`)).toContainText(
    'The user picked the apple in the dashboard.',
  );
  await view.getByRole('button', { name: 'Ask a follow-up' }).click();
  await expect(view.locator('#sent')).toHaveText('message sent');
  const sent = page.locator('[data-role="user"]').last();
  await expect(userTexts(page).last()).toHaveText('Tell me more about apples');
  await expect(sent.locator(`[data-from-app="${SERVER}"]`)).toHaveText(
    `Sent by the app of ${SERVER}.show_dashboard`,
  );
  await expect(sent.locator(`[data-app-context="${SERVER}"]`)).toContainText('show_dashboard');
  await expect(page.locator(`[data-app-context-pending="${SERVER}"]`)).toHaveCount(0);
  // The model got the context, marked as the app's.
  await expect(async () => {
    const last = JSON.stringify((await fakeModelRequests(bob.request)).at(-1)?.body.messages ?? []);
    expect(last).toContain('The user picked the apple in the dashboard.');
    expect(last).toContain(`app-context server=\\"${SERVER}\\"`);
  }).toPass();
  await expect(page.locator('[data-role="assistant"]').last()).not.toBeEmpty();

  await page.reload();
  await expect(userTexts(page).last()).toHaveText('Tell me more about apples');
  const stored = page.locator('[data-role="user"]').last();
  await expect(stored.locator(`[data-from-app="${SERVER}"]`)).toBeVisible();
  await stored.locator(`[data-app-context="${SERVER}"] summary`).click();
  await expect(stored.locator(`[data-app-context="${SERVER}"]`)).toContainText(
    'The user picked the apple in the dashboard.',
  );
  // The app re-initialises with the stored tool input and result.
  await expect(app(page).locator('#state')).toHaveText('ready', { timeout: 30_000 });
  await expect(app(page).locator('#input')).toHaveText('input: {"topic":"apples"}');
  await expect(app(page).locator('#result')).toHaveText('result: Dashboard for apples');

  // A share page shows the tool's text result, never the app.
  const shared = await bob.request.post(`/api/conversations/${conversationOf(page)}/share`, {
    data: { includeToolDetails: true },
    headers: h,
  });
  expect(shared.status(), await shared.text()).toBe(201);
  const { token } = await shared.json();
  await page.goto(`/share/${token}`);
  await expect(page.getByText('Tell me more about apples', { exact: true })).toBeVisible();
  const sharedTool = page.locator('[data-tool-call][data-tool-name="show_dashboard"]');
  await sharedTool.locator('summary').click();
  await expect(sharedTool.locator('[data-tool-output]')).toContainText('Dashboard for apples');
  await expect(page.locator('iframe')).toHaveCount(0);
  await page.close();
});

test('an app cannot send a message or take the full screen unprompted, or on a click elsewhere: only when used', async () => {
  // The app tries both as soon as it has its input, just after Bob sent his question (a click on the page).
  const page = await dashboard(bob, 'unprompted');
  const view = app(page);
  await expect(view.locator('#sent')).toHaveText('message refused');
  await expect(view.locator('#mode')).toHaveText('display: inline');
  await expect(userTexts(page)).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Exit full screen' })).toHaveCount(0);
  // Clicked in the app, the same requests go through.
  await view.getByRole('button', { name: 'Ask a follow-up' }).click();
  await expect(view.locator('#sent')).toHaveText('message sent');
  await expect(userTexts(page)).toHaveCount(2);
  await expect(userTexts(page).last()).toHaveText('Tell me more about apples');
  // After a reload the app, shown again in its card, tries again: refused again.
  await page.reload();
  await expect(app(page).locator('#sent')).toHaveText('message refused', { timeout: 30_000 });
  await expect(userTexts(page)).toHaveCount(2);
  await page.close();
});

test('full screen is a modal dialog: the focus moves in, Tab stays in it, Escape gives it back; the page behind and the app stay as they were', async () => {
  const page = await dashboard(bob);
  // Short enough for the list behind to scroll, so that it could move.
  await page.setViewportSize({ width: 1280, height: 560 });
  const view = app(page);
  const section = appView(page);
  const dialog = page.getByRole('dialog', { name: appName() });
  const full = section.getByRole('button', { name: 'Full screen' });
  const exit = dialog.getByRole('button', { name: 'Exit full screen' });
  // The app's own state, which a reloaded (re-parented, portalled) frame would lose.
  await view.getByRole('button', { name: 'Ping the server' }).click();
  await expect(view.locator('#ping')).toHaveText('ping: pong from the server');
  await expect.poll(async () => (await listTop(page)) ?? 0).toBeGreaterThan(0);
  const before = await listTop(page);

  // From the message box, a click that does not focus the button (as in Safari, or Firefox on a Mac).
  await composer(page).focus();
  await full.dispatchEvent('click');
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expect(exit).toBeFocused();
  // Round the view's button and the app's controls, never to the page under it.
  await tabAround(page, 'Tab', 12);
  await tabAround(page, 'Shift+Tab', 12);
  // Nor can a shortcut put it there: Ctrl+K (the sidebar's search box) leaves it on the view's button.
  await exit.focus();
  await page.keyboard.press('Control+k');
  expect(await focusIn(page)).toBe('inside');
  expect(await listTop(page)).toBe(before);

  // A click on the view's bare part leaves the focus nowhere; Escape gives it back to the button.
  await section.getByText(`App from ${SERVER}`).click();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(full).toBeFocused();
  expect(await listTop(page)).toBe(before);
  await expect(view.locator('#ping')).toHaveText('ping: pong from the server');
  // The page is usable again.
  await composer(page).focus();
  await expect(composer(page)).toBeFocused();
  await page.close();
});
