// Issue 17: generated titles (SPEC §7.4) and token usage. The fake model answers the app's title
// request as the conversation's first message scripts it: [[title:TEXT]], [[title-status:CODE]],
// [[title-delay:MS]] (e2e/fixtures/fake-openai-title.mjs); title requests are logged at /title-requests.
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
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

const TESS = specUser('s45', 'Tess Titles');
const h = originHeaders();
/** Makes this run's messages unique in the fake model's title log (it outlives a spec file). */
const run = Date.now().toString(36);

let admin: BrowserContext;
let tess: BrowserContext;
let providerId = '';

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, TESS);
  tess = await browser.newContext();
  await signIn(tess, TESS);
});

test.afterAll(async () => {
  if (providerId) await admin.request.delete(`/api/admin/providers/${providerId}`, { headers: h });
  await Promise.all([admin.close(), tess.close()]);
});

const header = (page: Page) => page.locator('header h1');
const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });

/** The title requests the fake model got whose quoted first message holds `text`. */
async function titleRequestsFor(request: APIRequestContext, text: string): Promise<number> {
  const res = await request.get(`${FAKE_MODEL_URL}/title-requests`);
  const log = (await res.json()) as Array<{ body: unknown }>;
  return log.filter((r) => JSON.stringify(r.body).includes(text)).length;
}

/** The conversation's title once its title request has settled (the server waits for it). */
async function settled(page: Page, id: string) {
  const res = await page.request.get(`/api/conversations/${id}/summary?wait=1`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as { title: string; titleSource: string };
}

/** Opens a new chat and marks the document, so a reload (which would drop the mark) can be told apart. */
async function newChat(): Promise<Page> {
  const page = await tess.newPage();
  await page.goto('/');
  await page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });
  return page;
}
const notReloaded = (page: Page) =>
  page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);

test("a new chat gets the model's title in the sidebar, the header and the tab title, without a reload", async () => {
  const page = await newChat();
  const first = `Plan a weekend in Lisbon ${run}`;
  await send(page, `${first} [[title:"Lisbon Weekend Plan".]]`);
  await expect(assistantMessages(page).last()).toContainText(`You said: ${first}`);
  // The model's reply is cleaned (no quotes, no full stop) before it is shown.
  await expect(header(page)).toHaveText('Lisbon Weekend Plan');
  await expect(sidebar(page).getByRole('link', { name: 'Lisbon Weekend Plan' })).toBeVisible();
  await expect(page).toHaveTitle('Lisbon Weekend Plan · MCP Chat');
  expect(await notReloaded(page)).toBe(true);
  // It came from one title request that quoted the first message; it is stored.
  expect(await titleRequestsFor(page.request, first)).toBe(1);
  const id = conversationIdFromUrl(page);
  expect(await settled(page, id)).toMatchObject({ title: 'Lisbon Weekend Plan', titleSource: 'model' });
  await page.reload();
  await expect(header(page)).toHaveText('Lisbon Weekend Plan');
  // A second answer asks for no new title.
  await send(page, 'And a day trip to Sintra');
  await expect(assistantMessages(page).last()).toContainText('You said: And a day trip to Sintra');
  await settled(page, id);
  expect(await titleRequestsFor(page.request, first)).toBe(1);
  await expect(header(page)).toHaveText('Lisbon Weekend Plan');
  await page.close();
});

test('a rename made while the title request is in flight wins, and the conversation keeps its name', async () => {
  const page = await newChat();
  const first = `Rename my tram ride ${run} [[title:Model Title]] [[title-delay:8000]]`;
  await send(page, first);
  await expect(assistantMessages(page).last()).toContainText(`You said: Rename my tram ride ${run}`);
  const id = conversationIdFromUrl(page);
  // The title request has reached the model (which takes 8 s to answer): rename now.
  await expect.poll(() => titleRequestsFor(page.request, `Rename my tram ride ${run}`)).toBe(1);
  await sidebar(page)
    .getByRole('button', { name: `Rename ${first}` })
    .click();
  const input = page.getByRole('textbox', { name: 'Conversation title' });
  await input.fill('My own name');
  await input.press('Enter');
  await expect(header(page)).toHaveText('My own name');
  // Once the model's title has come back, the rename still stands — stored, and on screen.
  expect(await settled(page, id)).toEqual({
    title: 'My own name',
    titleSource: 'user',
    usage: expect.any(Object),
  });
  await expect(header(page)).toHaveText('My own name');
  await expect(sidebar(page).getByRole('link', { name: 'My own name' })).toBeVisible();
  await expect(page).toHaveTitle('My own name · MCP Chat');
  await page.reload();
  await expect(header(page)).toHaveText('My own name');
  await page.close();
});

test('a title request that fails leaves the first words', async () => {
  const page = await newChat();
  const first = `Keep my first words about ferries ${run} [[title-status:500]]`;
  await send(page, first);
  await expect(assistantMessages(page).last()).toContainText(
    `You said: Keep my first words about ferries ${run}`,
  );
  await expect.poll(() => titleRequestsFor(page.request, `Keep my first words about ferries ${run}`)).toBe(1);
  const id = conversationIdFromUrl(page);
  expect(await settled(page, id)).toMatchObject({ title: first, titleSource: 'auto' });
  await expect(header(page)).toHaveText(first);
  await expect(sidebar(page).getByRole('link', { name: first })).toBeVisible();
  await expect(page).toHaveTitle(`${first} · MCP Chat`);
  await page.close();
});

test("an answer's details show its tokens; the header's Usage shows the conversation's totals", async () => {
  const page = await newChat();
  await send(page, 'Count my tokens [[say:one two three]]');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('one two three');
  await answer.hover();
  await answer.getByRole('button', { name: 'Details' }).click();
  // The fake model counts one output token per streamed word.
  await expect(answer.locator('[data-tokens]')).toHaveText(/^\d+ in · 3 out · \d+ total$/);
  await expect(answer.locator('[data-cost]')).toHaveCount(0);
  await expect(answer.locator('[data-message-details]')).toContainText('fake-model');

  await send(page, 'Again [[say:four five]]');
  await expect(assistantMessages(page).last()).toContainText('four five');
  await page.getByText('Usage', { exact: true }).click();
  const totals = page.getByRole('dialog', { name: 'Usage in this conversation' });
  await expect(totals).toContainText('Answers');
  await expect(totals.locator('dd').first()).toHaveText('2');
  await expect(totals.locator('[data-total-tokens]')).toHaveText(/^\d+$/);
  await expect(totals.locator('[data-total-cost]')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(totals).toBeHidden();
  await page.close();
});

test('with a price set by an admin, the answer and the conversation show the cost', async () => {
  const form = await admin.newPage();
  await form.goto('/admin/providers');
  await form.getByRole('button', { name: 'Add provider' }).click();
  await form.getByLabel('Name').fill('Priced');
  await form.getByLabel('Base URL').fill(`${FAKE_MODEL_URL}/v1`);
  await form.getByRole('textbox', { name: 'Models' }).fill('fake-model');
  // Input tokens free, each output token one dollar (USD per 1M tokens).
  await form.getByLabel('Prices').fill('fake-model: 0, 1000000');
  await form.getByRole('button', { name: 'Add provider' }).last().click();
  await expect(form.locator('[data-provider="Priced"]')).toBeVisible();
  const providers = (await (await admin.request.get('/api/admin/providers')).json()).items as Array<{
    id: string;
    name: string;
    prices: unknown;
  }>;
  const priced = providers.find((p) => p.name === 'Priced');
  providerId = priced?.id ?? '';
  expect(priced?.prices).toEqual({ 'fake-model': { input: 0, output: 1_000_000 } });
  await form.close();

  const page = await newChat();
  await page.getByRole('combobox', { name: /^Model/ }).selectOption({ label: 'fake-model (Priced)' });
  await send(page, 'What does it cost [[say:one two three]]');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('one two three');
  await answer.hover();
  await answer.getByRole('button', { name: 'Details' }).click();
  await expect(answer.locator('[data-cost]')).toHaveText('$3.00');
  await page.getByText('Usage', { exact: true }).click();
  await expect(
    page.getByRole('dialog', { name: 'Usage in this conversation' }).locator('[data-total-cost]'),
  ).toHaveText('$3.00');
  await page.close();
});
