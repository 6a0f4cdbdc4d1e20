// SPEC §7.3 "Rich results": tool images reach the model as images (unless an admin turned vision off
// for the model), links and embedded resources show as links and attachments rather than JSON, and
// `audience` annotations decide what the user sees and what the model gets. A real stdio child of the
// test MCP server with its rich tools (TEST_MCP_RICH=1); the real fake model reports what it received.
import { resolve } from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import {
  ADMIN,
  assistantMessages,
  fakeModelRequests,
  originHeaders,
  send,
  sendAllTools,
  signIn,
} from './helpers';

const FIXTURE = resolve('e2e/fixtures/test-mcp-server.mjs');
const SERVER = 't30rich';
const BLIND = 't30blind';
const h = originHeaders();

test.describe.configure({ mode: 'serial' });

let ctx: BrowserContext;
let page: Page;
let serverId: string | undefined;
let providerId: string | undefined;

let restoreToolSearch: (() => Promise<void>) | undefined;

test.beforeAll(async ({ browser }) => {
  ctx = await browser.newContext();
  await signIn(ctx, ADMIN);
  page = await ctx.newPage();
  // The rich server puts the catalog past the tool search budget; these tests call its tools directly.
  restoreToolSearch = await sendAllTools(ctx.request);
  const server = await ctx.request.post('/api/mcp/servers', {
    data: {
      name: SERVER,
      transport: 'stdio',
      command: 'node',
      args: [FIXTURE, 'stdio'],
      env: { TEST_MCP_RICH: '1' },
      scope: 'shared',
    },
    headers: h,
  });
  expect(server.status(), await server.text()).toBe(201);
  serverId = (await server.json()).id;
  // The admin turns vision off for a model in the provider form.
  await page.goto('/admin/providers');
  await page.getByRole('button', { name: 'Add provider' }).click();
  await page.getByLabel('Name').fill(BLIND);
  await page.getByLabel('Base URL').fill(`${FAKE_MODEL_URL}/v1`);
  await page.getByRole('textbox', { name: 'Models', exact: true }).fill('fake-model');
  await page.getByLabel('Without vision').fill('fake-model');
  await page.getByRole('button', { name: 'Add provider' }).last().click();
  await expect(page.locator(`[data-provider="${BLIND}"]`)).toBeVisible();
  const list = (await (await ctx.request.get('/api/admin/providers')).json()).items as Array<{
    id: string;
    name: string;
    noVision: string[];
  }>;
  const provider = list.find((p) => p.name === BLIND);
  expect(provider?.noVision).toEqual(['fake-model']);
  providerId = provider?.id;
});

test.afterAll(async () => {
  if (serverId) await ctx.request.delete(`/api/mcp/servers/${serverId}`, { headers: h });
  if (providerId) await ctx.request.delete(`/api/admin/providers/${providerId}`, { headers: h });
  await restoreToolSearch?.();
  await ctx.close();
});

/** The messages of the latest model request that carried tool results (a title request may come after it). */
async function lastToolRequest(): Promise<string> {
  const requests = await fakeModelRequests(ctx.request);
  const bodies = requests.map((r) => JSON.stringify(r.body.messages));
  return bodies.findLast((b) => b.includes('"role":"tool"')) ?? '';
}

/** A new conversation on `model` whose model calls `tool`, then reports what it received. */
async function run(tool: string, model = 'fake-model') {
  await page.goto('/');
  await page.getByLabel('Model').selectOption(model);
  await send(page, `[[tool:${tool}]] [[media-report]]`);
  const answer = assistantMessages(page).last();
  const card = answer.locator(`[data-tool-call][data-tool-name="${tool}"]`);
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(answer).toContainText('Media report:');
  return { answer, card };
}

test('an image reaches a vision model as an image part, and opens full size in the card', async () => {
  const { answer, card } = await run('show_image');
  await expect(answer).toContainText('Media report: images=1');
  await expect(answer).toContainText('[image image/png: shown to you in the next message]');
  const last = await lastToolRequest();
  expect(last).toContain('"type":"image_url"');
  expect(last).toContain('data:image/png;base64,iVBORw0KGgo');

  await expect(card.locator('[data-tool-output]')).toContainText('Here is the picture');
  const thumb = card.getByRole('button', { name: 'View image full size' });
  await expect(thumb.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(thumb.locator('img')).toHaveAttribute('alt', 'Image from the tool');
  const dialog = page.getByRole('dialog', { name: 'Image full size' });
  await expect(dialog).toBeHidden();
  await thumb.click();
  await expect(dialog).toBeVisible();
  // Full size: the 8×8 image is drawn at its natural size, not scaled into the thumbnail.
  const full = dialog.locator('img');
  await expect(full).toHaveJSProperty('naturalWidth', 8);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a model with vision turned off gets the note, not the image', async () => {
  const { answer } = await run('show_image', `${BLIND}/fake-model`);
  await expect(answer).toContainText('Media report: images=0');
  await expect(answer).toContainText('this model cannot view images');
  const last = await lastToolRequest();
  expect(last).toContain('this model cannot view images');
  expect(last).not.toContain('image_url');
});

test('resource links are links, embedded resources are attachments, never raw JSON', async () => {
  const { card } = await run('link_resource');
  const link = card.getByRole('link', { name: 'Quarterly report' });
  await expect(link).toHaveAttribute('href', 'https://example.com/reports/q3');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');

  const note = card.locator('details[data-tool-resource]');
  await expect(note.locator('summary')).toContainText('mem://notes/readme.txt');
  await expect(note.getByText('EMBEDDED-NOTE-BODY')).toBeHidden();
  await note.locator('summary').click();
  await expect(note.getByText('EMBEDDED-NOTE-BODY')).toBeVisible();

  const download = card.getByRole('link', { name: 'Download summary.pdf' });
  await expect(download).toHaveAttribute('download', 'summary.pdf');
  await expect(download).toHaveAttribute('href', /^data:application\/pdf;base64,JVBERi0/);
  const file = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file[0].suggestedFilename()).toBe('summary.pdf');

  const output = card.locator('[data-tool-output]');
  await expect(output).not.toContainText('"type"');
  await expect(output).not.toContainText('resource_link');
});

test('audience: user-only text is shown and not sent; assistant-only text is sent and not shown', async () => {
  const { answer, card } = await run('audience_mix');
  const output = card.locator('[data-tool-output]');
  await expect(output).toContainText('USER-ONLY-TEXT');
  await expect(output).toContainText('SHARED-TEXT');
  await expect(output).not.toContainText('ASSISTANT-ONLY-TEXT');

  // The fake model's answer quotes the tool text it received.
  await expect(answer).toContainText('ASSISTANT-ONLY-TEXT');
  const sent = await lastToolRequest();
  expect(sent).toContain('ASSISTANT-ONLY-TEXT');
  expect(sent).toContain('SHARED-TEXT');
  expect(sent).not.toContain('USER-ONLY-TEXT');
});

test('structured content shows as a table; audio gets a player', async () => {
  const { card } = await run('structured');
  const table = card.locator('[data-tool-structured] table');
  await expect(table.getByRole('columnheader', { name: 'city' })).toBeVisible();
  await expect(table.getByRole('row', { name: /Oslo\s*9\s*false/ })).toBeVisible();
  await expect(card.getByText('{"rows"')).toBeHidden();

  const sound = await run('play_sound');
  await expect(sound.card.locator('audio[controls]')).toHaveAttribute('src', /^data:audio\/wav;base64,UklGR/);
  await expect(sound.answer).toContainText('[audio audio/wav');
});
