import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { ADMIN, assistantMessages, composer, conversationIdFromUrl, originHeaders, signIn } from './helpers';

// Accessibility (issue 18): an automated scan (axe-core, WCAG 2.x A and AA rules) of the main pages, in
// both languages and both themes, finds no serious or critical violation. The scan runs on the page as a
// user sees it after load (and, on the chat page, with an answer and the dialogs a user opens most).

type Variant = { locale: 'en-US' | 'zh-CN'; colorScheme: 'light' | 'dark' };
const VARIANTS: Variant[] = [
  { locale: 'en-US', colorScheme: 'light' },
  { locale: 'en-US', colorScheme: 'dark' },
  { locale: 'zh-CN', colorScheme: 'light' },
  { locale: 'zh-CN', colorScheme: 'dark' },
];

/** Serious and critical violations on the page as it is now, each with the nodes that have it. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 5)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

let conversationId = '';
let shareUrl = '';
let serverId = '';

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  await signIn(context, ADMIN);
  const page = await context.newPage();
  await page.goto('/');
  await composer(page).fill('Show me some *markdown* with `code`, a list and a table please');
  await composer(page).press('Enter');
  await expect(page).toHaveURL(/\/c\//);
  await expect(assistantMessages(page).last()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0, { timeout: 20_000 });
  conversationId = conversationIdFromUrl(page);
  const share = await page.request.post(`/api/conversations/${conversationId}/share`, {
    data: {},
    headers: originHeaders(),
  });
  expect(share.status()).toBe(201);
  shareUrl = ((await share.json()) as { url: string }).url;
  const servers = (await (await page.request.get('/api/mcp/servers')).json()) as {
    items: Array<{ id: string }>;
  };
  serverId = servers.items[0]?.id ?? '';
  expect(serverId).not.toBe('');
  await context.close();
});

async function scanPages(browser: Browser, variant: Variant, signedIn: boolean, paths: () => string[]) {
  const context = await browser.newContext({ locale: variant.locale, colorScheme: variant.colorScheme });
  if (signedIn) await signIn(context, ADMIN);
  const page = await context.newPage();
  const found: string[] = [];
  for (const path of paths()) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    for (const v of await seriousViolations(page)) found.push(`${path}: ${v}`);
  }
  await context.close();
  return found;
}

for (const variant of VARIANTS) {
  const name = `${variant.locale}, ${variant.colorScheme}`;

  test(`signed-out pages have no serious accessibility violations (${name})`, async ({ browser }) => {
    const found = await scanPages(browser, variant, false, () => ['/sign-in', '/sign-up', shareUrl]);
    expect(found, found.join('\n')).toEqual([]);
  });

  test(`chat pages have no serious accessibility violations (${name})`, async ({ browser }) => {
    const found = await scanPages(browser, variant, true, () => [
      '/',
      `/c/${conversationId}`,
      '/shares',
      '/account',
    ]);
    expect(found, found.join('\n')).toEqual([]);
  });

  test(`admin pages have no serious accessibility violations (${name})`, async ({ browser }) => {
    const found = await scanPages(browser, variant, true, () => [
      '/admin',
      '/admin/mcp',
      `/admin/mcp/${serverId}`,
      '/admin/providers',
      '/admin/users',
      '/admin/audit',
    ]);
    expect(found, found.join('\n')).toEqual([]);
  });
}

test('the dialogs and popovers people open most have no serious accessibility violations', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto(`/c/${conversationId}`);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Share conversation' })).toBeVisible();
  const share = await seriousViolations(page);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Shortcuts' }).click();
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  const shortcuts = await seriousViolations(page);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Usage', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Usage in this conversation' })).toBeVisible();
  const usage = await seriousViolations(page);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: /^Tools · / }).click();
  await expect(page.getByRole('dialog', { name: 'Tool settings' })).toBeVisible();
  const tools = await seriousViolations(page);
  const found = [...share, ...shortcuts, ...usage, ...tools];
  expect(found, found.join('\n')).toEqual([]);
});

test('on a phone, the menu button covers no page heading', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.setViewportSize({ width: 375, height: 740 });
  const menu = page.getByRole('button', { name: 'Open menu' });
  for (const path of ['/account', '/shares', '/assistants']) {
    await page.goto(path);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toBeVisible();
    const [m, h] = [await menu.boundingBox(), await heading.boundingBox()];
    if (!m || !h) throw new Error(`no box on ${path}`);
    const overlaps =
      m.x < h.x + h.width && h.x < m.x + m.width && m.y < h.y + h.height && h.y < m.y + m.height;
    expect(overlaps, `${path}: the menu button lies over "${await heading.textContent()}"`).toBe(false);
  }
});
