// MCP beyond tools (SPEC §7.3): a resource template filled in from the `@` picker with the server's
// completions and read for the model; prompts/get refusals as 404/400 naming the argument; the server's
// log messages on the admin's server page, and its log level. A real stdio child of the test MCP server
// with its rich features (e2e/fixtures/rich/resources.mjs); a real browser.
import { resolve } from 'node:path';
import { type APIRequestContext, type BrowserContext, expect, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import {
  ADMIN,
  composer,
  ensureUser,
  fakeModelRequests,
  originHeaders,
  send,
  sendAllTools,
  signIn,
  specUser,
  streamChunks,
} from './helpers';

const BOB = specUser('s31', 'Bob User');

const FIXTURE = resolve('e2e/fixtures/test-mcp-server.mjs');
const SERVER = 'rich31';
const LOG_SECRET = 'rich31-log-secret-5e7a';
const h = originHeaders();

let admin: BrowserContext;
let serverId = '';
let restoreToolSearch: (() => Promise<void>) | undefined;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  // The rich server puts the catalog past the tool search budget; these tests call its tools directly.
  restoreToolSearch = await sendAllTools(admin.request);
  const res = await admin.request.post('/api/mcp/servers', {
    data: {
      name: SERVER,
      transport: 'stdio',
      command: 'node',
      args: [FIXTURE, 'stdio'],
      env: { TEST_MCP_RICH: '1', RICH_LOG_SECRET: LOG_SECRET },
      scope: 'shared',
    },
    headers: h,
  });
  expect(res.status(), await res.text()).toBe(201);
  serverId = (await res.json()).id;
});

test.afterAll(async () => {
  if (serverId) await admin.request.delete(`/api/mcp/servers/${serverId}`, { headers: h });
  await restoreToolSearch?.();
  await admin.close();
});

/** One chat turn whose model calls `rich31__<tool>`; the tool's output text. */
async function callTool(request: APIRequestContext, tool: string) {
  const id = `t31-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const res = await request.post('/api/chat', {
    data: {
      id,
      message: {
        id: `${id}-m`,
        role: 'user',
        parts: [{ type: 'text', text: `[[tool:${SERVER}__${tool}]]` }],
      },
    },
    headers: h,
  });
  expect(res.status()).toBe(200);
  const output = streamChunks(await res.text()).find((c) => c.type === 'tool-output-available')?.output as
    | { content: Array<{ text: string }> }
    | undefined;
  return output?.content.map((c) => c.text).join('') ?? null;
}

test('@ offers a resource template; its dialog completes each variable from the server (keyboard only) and the model reads the expanded URI', async () => {
  const page = await admin.newPage();
  await page.request.delete(`${FAKE_MODEL_URL}/requests`);
  await page.goto('/');
  const box = composer(page);
  const picker = page.getByRole('listbox', { name: 'Resources' });
  await expect(async () => {
    await box.fill('');
    await box.fill('@note');
    await expect(picker.getByRole('option', { name: /^note/ })).toBeVisible({ timeout: 2_000 });
  }).toPass();
  const option = picker.getByRole('option', { name: /^note/ });
  await expect(option).toContainText('notes://{folder}/{name} (template)');
  await expect(option).not.toHaveAttribute('aria-disabled', 'true');
  await box.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Fill in note' });
  await expect(dialog).toBeVisible();
  const folder = dialog.getByRole('combobox', { name: /^folder/ });
  await expect(folder).toBeFocused();
  await folder.pressSequentially('w');
  const folders = dialog.getByRole('listbox', { name: 'Suggestions for folder' });
  await expect(folders.getByRole('option')).toHaveText(['work']);
  await folder.press('ArrowDown');
  await folder.press('Enter');
  await expect(folder).toHaveValue('work');

  // The names offered are those of the folder chosen: the server got it as context.
  await folder.press('Tab');
  const name = dialog.getByRole('combobox', { name: /^name/ });
  await expect(name).toBeFocused();
  const names = dialog.getByRole('listbox', { name: 'Suggestions for name' });
  await expect(names.getByRole('option')).toHaveText(['plan', 'budget', 'roadmap']);
  await name.pressSequentially('r');
  await expect(names.getByRole('option')).toHaveText(['roadmap']);
  await name.press('ArrowDown');
  await name.press('Enter');
  await expect(name).toHaveValue('roadmap');
  await expect(dialog.locator('[data-template-preview]')).toHaveText('notes://work/roadmap');
  await dialog.getByRole('button', { name: 'Attach' }).press('Enter');
  await expect(dialog).toBeHidden();

  const chip = page.locator('[data-composer] [data-resource-chip="notes://work/roadmap"]');
  await expect(chip).toBeVisible();
  await expect(box).toBeFocused();
  await send(page, 'what does my note say?');
  await expect(chip).toHaveCount(0);
  await expect
    .poll(async () => JSON.stringify((await fakeModelRequests(page.request)).at(-1)?.body.messages ?? []))
    .toContain('Note roadmap in folder work: remember the roadmap.');
  await expect(page.locator('[data-role="user"] [data-resource-chip="notes://work/roadmap"]')).toBeVisible();
  await page.close();
});

test('resource template completion goes through the pool: a server the user may not use is 404', async () => {
  const complete = (server: string) =>
    admin.request.post('/api/resources/complete', {
      data: {
        server,
        uriTemplate: 'notes://{folder}/{name}',
        argument: 'name',
        value: 'g',
        context: { folder: 'home' },
      },
      headers: h,
    });
  const ok = await complete(SERVER);
  expect(ok.status()).toBe(200);
  expect((await ok.json()).values).toEqual(['groceries', 'garden']);
  expect((await complete('no-such-server')).status()).toBe(404);
  const bad = await admin.request.post('/api/resources/complete', { data: { server: SERVER }, headers: h });
  expect(bad.status()).toBe(400);
});

test('prompts/get: unknown prompt 404, missing or invalid argument 400 naming it, never 500', async () => {
  const get = (name: string, args: Record<string, string>) =>
    admin.request.post('/api/prompts/get', { data: { server: SERVER, name, arguments: args }, headers: h });

  const unknown = await get('no_such_prompt', {});
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.message).toContain('no_such_prompt');

  const missing = await get('plan_trip', { days: '3' });
  expect(missing.status()).toBe(400);
  const missingBody = await missing.json();
  expect(missingBody.error.message).toMatch(/missing required argument city/);
  expect(missingBody.error.fields).toEqual({ 'arguments.city': 'required' });

  const invalid = await get('plan_trip', { city: 'Rome', days: 'many' });
  expect(invalid.status()).toBe(400);
  const invalidBody = await invalid.json();
  expect(invalidBody.error.message).toMatch(/argument days.*days must be a number of days/);
  expect(invalidBody.error.fields).toEqual({ 'arguments.days': 'invalid' });

  const ok = await get('plan_trip', { city: 'Rome', days: '3' });
  expect(ok.status()).toBe(200);
  expect((await ok.json()).messages).toEqual([{ role: 'user', text: 'Plan 3 days in Rome' }]);
});

test("the admin sees the server's log messages (secrets masked) on its page; the level selector makes the server send only warning and above", async () => {
  const page = await admin.newPage();
  // The level from an earlier run of this spec (same server name): back to the server's default.
  await page.request.patch(`/api/mcp/servers/${serverId}`, { data: { logLevel: null }, headers: h });
  expect(await callTool(page.request, 'log_burst')).toBe('sent 4 log messages');

  await page.goto(`/admin/mcp/${serverId}`);
  const messages = page.locator('[data-log-messages]');
  for (const level of ['debug', 'info', 'warning', 'error'])
    await expect(messages.locator(`[data-log-level="${level}"]`).first()).toContainText(`burst ${level} #1`);
  await expect(messages).toContainText('burst:');
  await expect(messages).toContainText('"token":"••••••"');
  await expect(messages).not.toContainText(LOG_SECRET);
  expect(await (await page.request.get(`/api/mcp/servers/${serverId}/logs`)).text()).not.toContain(
    LOG_SECRET,
  );

  // Only admins read them.
  const bob = await page.context().browser()?.newContext();
  if (!bob) throw new Error('no browser');
  await ensureUser(page.request, BOB);
  await signIn(bob, BOB);
  const forbidden = await bob.request.get(`/api/mcp/servers/${serverId}/logs`);
  expect(forbidden.status()).toBe(403);
  await bob.close();

  const select = page.getByLabel('Log level');
  await expect(async () => {
    await select.selectOption('warning');
    await expect
      .poll(async () => (await (await page.request.get(`/api/mcp/servers/${serverId}`)).json()).logLevel, {
        timeout: 2_000,
      })
      .toBe('warning');
  }).toPass();

  // Saved, the server reconnects and is sent logging/setLevel "warning": debug and info no longer arrive.
  expect(await callTool(page.request, 'log_burst')).toBe('sent 2 log messages');
  await page.reload();
  await expect(page.getByLabel('Log level')).toHaveValue('warning');
  await expect(messages.locator('[data-log-level="error"]').first()).toContainText('burst error #1');
  await expect(messages.locator('[data-log-level="warning"]')).toHaveCount(1);
  await expect(messages.locator('[data-log-level="debug"], [data-log-level="info"]')).toHaveCount(0);
  await page.close();
});

/** The text of the `<resource uri="…">` block the model was last sent for `uri`. */
async function resourceSeen(request: APIRequestContext, uri: string): Promise<string | null> {
  const last = (await fakeModelRequests(request)).at(-1)?.body.messages ?? [];
  const texts = (last as Array<{ content: unknown }>).flatMap((m) =>
    typeof m.content === 'string'
      ? [m.content]
      : Array.isArray(m.content)
        ? m.content.map((c: { text?: string }) => c.text ?? '')
        : [],
  );
  const open = `<resource uri="${uri}" server="${SERVER}">\n`;
  const block = texts.find((t) => t.includes(open));
  return block ? (block.slice(block.indexOf(open) + open.length).split('\n</resource>')[0] ?? null) : null;
}

test('an attached resource the server changes (resources/subscribe) is read again before the next turn in every conversation holding it; its chip says "updated"', async () => {
  const page = await admin.newPage();
  await page.request.delete(`${FAKE_MODEL_URL}/requests`);
  // bump_counter changes something: it runs without asking here.
  const allowed = await page.request.patch(`/api/mcp/servers/${serverId}/tools/bump_counter`, {
    data: { approval: 'auto' },
    headers: h,
  });
  expect(allowed.status(), await allowed.text()).toBe(200);
  const box = composer(page);
  const picker = page.getByRole('listbox', { name: 'Resources' });
  const idle = async () => {
    await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  };
  /** A new conversation with the counter attached to its first message; its URL. */
  const withCounter = async (question: string) => {
    await page.goto('/');
    await expect(async () => {
      await box.fill('');
      await box.fill('@counter');
      await expect(picker.getByRole('option', { name: /^counter/ })).toBeVisible({ timeout: 2_000 });
    }).toPass();
    await box.press('Enter');
    await expect(page.locator('[data-composer] [data-resource-chip="counter://value"]')).toBeVisible();
    await send(page, question);
    await expect.poll(() => resourceSeen(page.request, 'counter://value')).toMatch(/^counter=\d+$/);
    await idle();
    return page.url();
  };
  /** The counter as the model saw it on the next turn of this conversation. */
  const seenNext = async (question: string) => {
    const requests = (await fakeModelRequests(page.request)).length;
    await send(page, question);
    await expect.poll(async () => (await fakeModelRequests(page.request)).length).toBeGreaterThan(requests);
    await idle();
    return resourceSeen(page.request, 'counter://value');
  };

  // Two conversations hold the counter, both read before it changes.
  const first = await withCounter('what is the counter?');
  const before = Number((await resourceSeen(page.request, 'counter://value'))?.split('=')[1]);
  await withCounter('and the counter here?');

  // The model bumps it: the server tells its subscribers.
  await send(page, `[[tool:${SERVER}__bump_counter]]`);
  await expect(page.locator('[data-tool-call]').last()).toHaveAttribute('data-state', 'done');
  await idle();
  expect(await seenNext('and now?')).toBe(`counter=${before + 1}`);
  // The first conversation reads it again too (before, the second one's read took the only "changed" mark).
  await page.goto(first);
  expect(await seenNext('and in the first one?')).toBe(`counter=${before + 1}`);

  await page.reload();
  const chip = page.locator('[data-role="user"]').first().locator('[data-resource-chip="counter://value"]');
  await expect(chip.locator('[data-resource-updated]')).toHaveText('updated');
  await page.close();
});
