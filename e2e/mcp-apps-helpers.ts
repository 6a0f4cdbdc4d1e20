// What the MCP Apps specs share (issue 21: e2e/37-mcp-apps.spec.ts and e2e/52-mcp-apps-layout-admin.spec.ts):
// before a spec's tests the admin adds the apps server (e2e/fixtures/test-mcp-server-apps.mjs, a real stdio
// child) under the spec's own name, and the spec's own users Bob and Carol sign in; after them the server
// goes and the admin's tool-search bounds come back. Bound below while the spec's tests run.
import { resolve } from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { ADMIN, ensureUser, originHeaders, sendAllTools, signIn, specUser } from './helpers';
import { openChat } from './rich-chat';

export const h = originHeaders();
/** The apps server's name in the running spec (its own per spec file: t37apps, t52apps). */
export let SERVER = '';
export let admin: BrowserContext;
export let bob: BrowserContext;
export let carol: BrowserContext;
export let serverId = '';
let restoreToolSearch: () => Promise<void>;

export const outer = (page: Page) => page.locator(`iframe[data-mcp-app="${SERVER}"]`).last();
/** The app's own document: the frame inside the host's sandbox proxy. */
export const app = (page: Page) =>
  page.frameLocator(`iframe[data-mcp-app="${SERVER}"] >> nth=-1`).frameLocator('iframe');
/** The dashboard's view: its section (a region in the page, a dialog full screen) by its name. */
export const appName = () => `App of ${SERVER}.show_dashboard`;
export const appView = (page: Page) => page.locator(`section[aria-label="${appName()}"]`).last();
/** The scroll position of the message list behind the app. */
export const listTop = (page: Page) =>
  page.evaluate(() => document.querySelector('[data-message-list]')?.closest('.overflow-y-auto')?.scrollTop);

/** 'inside' while the focus is in the app's view (in its frame counts), else where it is. */
export const focusIn = (page: Page) =>
  appView(page).evaluate((view) => {
    const active = document.activeElement;
    return view.contains(active) ? 'inside' : `${active?.tagName} ${active?.textContent?.slice(0, 40)}`;
  });

/** Presses `key` `times` times; after each, the focus is still inside the app's view. */
export async function tabAround(page: Page, key: 'Tab' | 'Shift+Tab', times: number): Promise<void> {
  for (let i = 1; i <= times; i++) {
    await page.keyboard.press(key);
    expect(await focusIn(page), `${key} ×${i}`).toBe('inside');
  }
}
export const conversationOf = (page: Page) => /\/c\/([^/?#]+)/.exec(page.url())?.[1] as string;

export async function dashboard(ctx: BrowserContext, topic = 'fruit'): Promise<Page> {
  const page = await openChat(ctx, `[[tool:${SERVER}__show_dashboard:{"topic":"${topic}"}]]`);
  await expect(app(page).locator('#state')).toHaveText('ready', { timeout: 30_000 });
  return page;
}

/** The spec's hooks; `spec` names the file as specUser does ('s37'). */
export function mcpAppsSpec(spec: string): void {
  const BOB = specUser(spec, 'Bob User');
  const CAROL = specUser(spec, 'Carol User');
  const name = `t${spec.slice(1)}apps`;
  const config = {
    name,
    transport: 'stdio',
    command: 'node',
    args: [resolve('e2e/fixtures/test-mcp-server-apps.mjs')],
    timeoutMs: 60_000,
  };

  test.beforeAll(async ({ browser }) => {
    SERVER = name;
    admin = await browser.newContext();
    await signIn(admin, ADMIN);
    await ensureUser(admin.request, BOB);
    await ensureUser(admin.request, CAROL);
    bob = await browser.newContext();
    await signIn(bob, BOB);
    carol = await browser.newContext();
    await signIn(carol, CAROL);
    restoreToolSearch = await sendAllTools(admin.request);
    const res = await admin.request.post('/api/mcp/servers', { data: config, headers: h });
    expect(res.status(), await res.text()).toBe(201);
    serverId = (await res.json()).id;
  });

  test.afterAll(async () => {
    await admin.request.delete(`/api/mcp/servers/${serverId}`, { headers: h });
    await restoreToolSearch();
    await Promise.all([admin.close(), bob.close(), carol.close()]);
  });
}
