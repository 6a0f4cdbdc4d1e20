// Issue 21: MCP Apps, part 2 (rendering, gates and messages are in e2e/37-mcp-apps.spec.ts; the shared
// setup is in e2e/mcp-apps-helpers.ts). The app fits a phone-wide screen, follows the user's theme and goes
// full screen and back (asked for by the app, a modal dialog that leaves it the focus, with its approval
// cards and a dialog over it working; the keyboard side is in 37; over an older message, new messages behind it
// keep it mounted; failing full screen, it is shown inline with the focus on its retry); its host's code loads with the first app, not with every chat page, and an app
// whose code cannot be fetched says so with a retry; a broken app shows an error with the text result; the admin grants permissions per
// server, and with apps switched off the tool card shows only the text result.
import { expect, type Route, test } from '@playwright/test';
import { assistantMessages, chooseRowAction, send, userTexts } from './helpers';
import {
  admin,
  app,
  appName,
  appView,
  bob,
  dashboard,
  focusIn,
  h,
  mcpAppsSpec,
  outer,
  SERVER,
  serverId,
  tabAround,
} from './mcp-apps-helpers';
import { card, openChat } from './rich-chat';

mcpAppsSpec('s52');

test('a chat page loads neither the app host nor zod’s locales until a tool result has an app', async () => {
  const page = await bob.newPage();
  const scripts: string[] = [];
  page.on('response', async (r) => {
    if (r.request().resourceType() === 'script') scripts.push(await r.text().catch(() => ''));
  });
  // The host side of the MCP Apps protocol (its method names survive minifying), and zod's German messages.
  const host = (body: string) => body.includes('"ui/initialize"');
  const locales = (body: string) => body.includes('Ungültige Eingabe');
  await page.goto('/');
  await expect(page.getByRole('textbox').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter(host).length, 'a chat page without apps does not load the app host').toBe(0);
  expect(scripts.filter(locales).length, 'only the locale in use is shipped').toBe(0);
  await expect(async () => {
    await send(page, `[[tool:${SERVER}__show_dashboard:{"topic":"lazy"}]]`);
    await expect(page).toHaveURL(/\/c\//, { timeout: 2000 });
  }).toPass();
  await expect(app(page).locator('#state')).toHaveText('ready', { timeout: 30_000 });
  await expect
    .poll(() => scripts.filter(host).length, { message: 'the app host came with the first app' })
    .toBeGreaterThan(0);
  await page.close();
});

test('an app whose code cannot be fetched says so with a retry, and the retry shows it', async () => {
  const url = (await dashboard(bob, 'offline')).url();
  const page = await bob.newPage();
  // A dropped network for the app host's chunk only (found by its protocol's method names).
  let offline = true;
  await page.route('**/_next/static/chunks/**', async (route: Route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (offline && body.includes('"ui/initialize"')) return route.abort('internetdisconnected');
    return route.fulfill({ response, body });
  });
  await page.goto(url);
  const alert = page.locator(`[data-mcp-app-error="${SERVER}"]`);
  await expect(alert).toContainText('The app could not be shown');
  await expect(card(page, 'show_dashboard').locator('[data-tool-output]')).toContainText(
    'Dashboard for offline',
  );
  offline = false;
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(app(page).locator('#state')).toHaveText('ready', { timeout: 30_000 });
  await expect(alert).toHaveCount(0);
  await page.close();
});

test('on a phone-wide screen the app fits the width', async () => {
  const page = await dashboard(bob);
  await page.setViewportSize({ width: 390, height: 800 });
  await expect
    .poll(async () => {
      const box = await outer(page).boundingBox();
      return box ? box.x >= 0 && box.x + box.width <= 390 : false;
    })
    .toBe(true);
  await expect(app(page).getByRole('button', { name: 'Ping the server' })).toBeVisible();
  await page.close();
});

test('the theme follows the user’s setting as it changes; full screen on request, and back', async () => {
  const page = await dashboard(bob);
  const view = app(page);
  const dark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  await expect(view.locator('#theme')).toContainText(`theme: ${dark ? 'dark' : 'light'}`);
  await page.evaluate((d) => document.documentElement.classList.toggle('dark', d), !dark);
  await expect(view.locator('#theme')).toContainText(`theme: ${dark ? 'light' : 'dark'}`);

  const region = appView(page);
  await view.getByRole('button', { name: 'Go full screen' }).click();
  await expect(region).toHaveClass(/fixed/);
  await region.getByRole('button', { name: 'Exit full screen' }).click();
  await expect(region).not.toHaveClass(/fixed/);
  await region.getByRole('button', { name: 'Full screen' }).click();
  await expect(region).toHaveClass(/fixed/);
  await page.keyboard.press('Escape');
  await expect(region).not.toHaveClass(/fixed/);
  await page.close();
});

test('full screen asked for by the app: a modal dialog that leaves the focus in the app; its approval card and a dialog over it work', async () => {
  const page = await dashboard(bob);
  const view = app(page);
  const dialog = page.getByRole('dialog', { name: appName() });
  await view.getByRole('button', { name: 'Go full screen' }).click();
  await expect(view.locator('#mode')).toHaveText('display: fullscreen');
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  // The app being used keeps the focus; Tab goes round the view from there.
  expect(await outer(page).evaluate((frame) => frame === document.activeElement)).toBe(true);
  await tabAround(page, 'Tab', 10);
  await tabAround(page, 'Shift+Tab', 10);
  // A message the app sends meanwhile comes into the list behind: out of reach too.
  await view.getByRole('button', { name: 'Ask a follow-up' }).click();
  await expect(userTexts(page).last()).toHaveText('Tell me more about apples');
  await page.locator('[data-role="user"]').last().getByRole('button', { name: 'Copy' }).focus();
  expect(await focusIn(page)).toBe('inside');

  // An app's tool call that asks: its approval card is in the view, and works.
  await view.getByRole('button', { name: 'Record an apple' }).click();
  const approval = dialog.locator('[data-app-approval="app_record"]');
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(view.locator('#record')).toHaveText('record: recorded apple');
  // The shortcuts' dialog opens over it (a portal in the body); its Escape closes it alone.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await help.getByRole('button', { name: 'Close' }).focus();
  await expect(help.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(appView(page).getByRole('button', { name: 'Full screen' })).toBeFocused();
  await expect(view.locator('#record')).toHaveText('record: recorded apple');
  await page.close();
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  test(`full screen covers the whole ${viewport.width}×${viewport.height} window, not only the message`, async () => {
    const page = await dashboard(bob);
    await page.setViewportSize(viewport);
    const region = appView(page);
    await region.getByRole('button', { name: 'Full screen' }).click();
    await expect(region.getByRole('button', { name: 'Exit full screen' })).toBeVisible();
    // The message it sits in was a transformed box, which held the fixed view inside itself.
    await expect
      .poll(async () => {
        const box = await region.boundingBox();
        return box && [box.x, box.y, box.width, box.height].map(Math.round);
      })
      .toEqual([0, 0, viewport.width, viewport.height]);
    // Nothing of the page (the message box) lies over it.
    const over = await page.evaluate(
      ([x, y]) =>
        document
          .elementFromPoint(x ?? 0, y ?? 0)
          ?.closest('section')
          ?.getAttribute('aria-label'),
      [viewport.width / 2, viewport.height - 10],
    );
    expect(over).toBe(`App of ${SERVER}.show_dashboard`);
    await page.keyboard.press('Escape');
    await expect(region.getByRole('button', { name: 'Full screen' })).toBeVisible();
    await page.close();
  });
}

test('a broken app shows an error with the text result, never a blank box', async () => {
  const page = await openChat(bob, `[[tool:${SERVER}__show_broken]]`);
  const tool = card(page, 'show_broken');
  await expect(tool.locator('[data-tool-output]')).toContainText('Broken app result text');
  await expect(tool.locator(`[data-mcp-app-error="${SERVER}"]`)).toContainText('did not start in time', {
    timeout: 30_000,
  });
  await expect(tool.locator('iframe')).toHaveCount(0);
  await page.close();
});

test('admin: permissions granted per server, and apps switched off fall back to the text result', async () => {
  // In the server form: the clipboard may be granted; the camera stays off.
  const adminPage = await admin.newPage();
  await adminPage.goto('/admin/mcp');
  await chooseRowAction(adminPage, SERVER, 'Edit');
  const form = adminPage.getByRole('dialog', { name: `Edit server ${SERVER}` });
  await expect(form.getByLabel("Show this server's apps in tool cards")).toBeChecked();
  await expect(form.getByLabel('Camera')).not.toBeChecked();
  await form.getByLabel('Write to the clipboard').check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await adminPage.close();
  let page = await dashboard(bob);
  await expect(outer(page)).toHaveAttribute('allow', 'clipboard-write *');
  await expect(app(page).locator('#clipboard')).toHaveText('clipboard: allowed');
  await expect(app(page).locator('#camera')).toHaveText('camera: denied');
  await page.close();

  const off = await admin.request.patch(`/api/mcp/servers/${serverId}`, {
    data: { apps: { enabled: false, permissions: [] } },
    headers: h,
  });
  expect(off.status(), await off.text()).toBe(200);
  page = await openChat(bob, `[[tool:${SERVER}__show_dashboard:{"topic":"off"}]]`);
  await expect(card(page, 'show_dashboard').locator('[data-tool-output]')).toContainText('Dashboard for off');
  await expect(page.locator('iframe[data-mcp-app]')).toHaveCount(0);
  const read = await bob.request.get(
    `/api/mcp-apps/resource?server=${SERVER}&uri=${encodeURIComponent('ui://apps/dashboard.html')}`,
  );
  expect(read.status()).toBe(403);
  await page.close();
  await admin.request.patch(`/api/mcp/servers/${serverId}`, {
    data: { apps: { enabled: true, permissions: [] } },
    headers: h,
  });
});

test('full screen over an older message: new messages behind it neither unmount the app nor lose its state; leaving shows it again', async () => {
  const page = await dashboard(bob, 'pinned');
  const view = app(page);
  // Enough messages after the app that the windowed list lets its message go while it shows the end.
  for (let i = 1; i <= 12; i++) {
    await send(page, `filler ${i}`);
    await expect(assistantMessages(page).last()).toContainText(`You said: filler ${i}`);
  }
  await expect(outer(page)).toHaveCount(0);
  await page.evaluate(() =>
    document.querySelector('[data-message-list]')?.closest('.overflow-y-auto')?.scrollTo(0, 0),
  );
  await expect(view.locator('#state')).toHaveText('ready', { timeout: 30_000 });
  await appView(page).getByRole('button', { name: 'Full screen' }).click();
  // The app sends a message: its answer arrives at the end of the list behind, which goes there.
  await view.getByRole('button', { name: 'Ask a follow-up' }).click();
  await expect(assistantMessages(page).last()).toContainText('You said: Tell me more about apples');
  await expect(page.getByRole('dialog', { name: appName() })).toBeVisible();
  await expect(view.locator('#sent')).toHaveText('message sent');
  await appView(page).getByRole('button', { name: 'Exit full screen' }).press('Enter');
  const button = appView(page).getByRole('button', { name: 'Full screen' });
  await expect(button).toBeFocused();
  await expect(button).toBeInViewport();
  await expect(view.locator('#sent')).toHaveText('message sent');
  await page.close();
});

test('an app that fails while full screen is shown inline with the focus on "Try again", and comes back inline', async () => {
  const url = (await dashboard(bob, 'stuck')).url();
  const page = await bob.newPage();
  // The host's sandbox page never answers: the app never starts, and times out (15 s).
  await page.route('**/api/mcp-apps/sandbox**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><p>silent</p>' }),
  );
  await page.goto(url);
  const region = appView(page);
  await region.getByRole('button', { name: 'Full screen' }).click();
  await expect(page.getByRole('dialog', { name: appName() })).toBeVisible();
  const alert = page.locator(`[data-mcp-app-error="${SERVER}"]`);
  await expect(alert).toBeVisible({ timeout: 30_000 });
  await expect(alert.getByRole('button', { name: 'Try again' })).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.unroute('**/api/mcp-apps/sandbox**');
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(app(page).locator('#state')).toHaveText('ready', { timeout: 30_000 });
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(appView(page)).not.toHaveClass(/fixed/);
  await page.close();
});
