// What the keyboard specs of busy controls share (74-keyboard-admin-more, 76-keyboard-chat-busy,
// 77-focus-after-done): a request held on its way (a slow or refusing server, simulated with page.route),
// Enter pressed on a control, and, for the chat side's two specs, their MCP servers and user.
import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { adminContext } from './account-helpers';
import { type Account, ensureUsers, originHeaders, sendAllTools, signIn } from './helpers';
import { rich } from './rich-chat';

/**
 * Holds the next `method` request whose path matches `path` until the returned function is called, then
 * answers it with `answer` (or lets it through to the server). Counts the requests it sees meanwhile
 * (`seen()`), to show a second press sends nothing.
 */
export async function hold(
  page: Page,
  method: string,
  path: string | RegExp,
  answer?: { status: number; json: unknown },
) {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let count = 0;
  const matches = (url: URL) => (typeof path === 'string' ? url.pathname === path : path.test(url.pathname));
  await page.route(matches, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    count += 1;
    await gate;
    await (answer ? route.fulfill(answer) : route.continue());
  });
  return Object.assign(release, { seen: () => count });
}

/** Presses Enter on `control` (focused first, as Tab would leave it). */
export async function enter(page: Page, control: Locator) {
  await control.focus();
  await page.keyboard.press('Enter');
}

/**
 * The hooks of a chat-side spec (`n`: its number, '76'): the admin adds `t<n>ask` (server requests) and
 * `t<n>vals` (a value each user supplies, `T<n>_TOKEN`) with the whole catalog sent, `user` signs in before
 * each test; after them the servers go and the catalog's bounds come back.
 */
export function requestServersSpec(n: string, user: Account): void {
  const h = originHeaders();
  const names = [`t${n}ask`, `t${n}vals`];
  let admin: BrowserContext;
  let restoreToolSearch: () => Promise<void>;
  async function removeOurs() {
    const { items } = (await (await admin.request.get('/api/mcp/servers')).json()) as {
      items: Array<{ id: string; name: string }>;
    };
    for (const s of items.filter((s) => names.includes(s.name)))
      await admin.request.delete(`/api/mcp/servers/${s.id}`, { headers: h });
  }

  test.beforeAll(async ({ browser }) => {
    await ensureUsers(browser, user);
    admin = await adminContext(browser);
    await removeOurs();
    // The tools are called from the first step: the whole catalog is sent while these run.
    restoreToolSearch = await sendAllTools(admin.request);
    for (const config of [rich(`t${n}ask`), rich(`t${n}vals`, { userValues: [`T${n}_TOKEN`] })]) {
      const res = await admin.request.post('/api/mcp/servers', { data: config, headers: h });
      expect(res.status(), await res.text()).toBe(201);
    }
  });

  test.afterAll(async () => {
    await removeOurs();
    await restoreToolSearch();
    await admin.close();
  });

  test.beforeEach(({ page }) => signIn(page, user));
}
