import { type BrowserContext, expect, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import {
  ADMIN,
  assistantMessages,
  composer,
  ensureUser,
  fakeModelRequests,
  holdScripts,
  originHeaders,
  send,
  signIn,
  specUser,
} from './helpers';
import { searchBox, searchResults } from './history-helpers';

// Before hydration: what a user types or picks in the server's HTML, before React has taken over the page
// (a slow network), is kept and used once it has. The language picked early is in e2e 44.

const EVE = specUser('s54', 'Eve Early');

let admin: BrowserContext;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, EVE);
});

test.afterAll(async () => {
  await admin.close();
});

test.beforeEach(async ({ page }) => {
  await signIn(page, EVE);
});

test('what is typed or chosen before the page has hydrated is kept: the message is sent, on that model; the search runs; the theme applies', async ({
  page,
}) => {
  const created = await admin.request.post('/api/admin/providers', {
    data: { name: 's36early', baseURL: `${FAKE_MODEL_URL}/v1`, models: ['fake-model-2'] },
    headers: originHeaders(),
  });
  expect([201, 409]).toContain(created.status());
  const early = 's36early/fake-model-2';
  await page.goto('/');
  await send(page, 'Early bird wombat');
  await expect(assistantMessages(page).last()).toContainText('You said: Early bird wombat');

  // The page's scripts are held, so the server's HTML is up and React is not: the user types into it.
  const release = await holdScripts(page);
  await page.goto('/', { waitUntil: 'commit' });
  const modelSelect = page.getByLabel('Model');
  await expect(modelSelect).not.toHaveValue(early);
  await modelSelect.selectOption(early);
  await page.getByLabel('Theme').selectOption('dark');
  await composer(page).fill('typed before hydration');
  await searchBox(page).fill('wombat');
  release();

  // Hydrated: the search ran on the early query, the early text became the new chat's draft, and Enter sends it.
  await expect(searchResults(page)).toHaveCount(1);
  await expect(searchResults(page).first()).toContainText('Early bird wombat');
  await expect(searchBox(page)).toHaveValue('wombat');
  // The message box, focused by the server's HTML, does not take the focus back from the search box as the
  // page hydrates: what the user types next still goes where they are typing.
  await expect(searchBox(page)).toBeFocused();
  await expect
    .poll(() => page.evaluate(() => sessionStorage.getItem('mcp-chat:draft:new')))
    .toBe('typed before hydration');
  await expect(composer(page)).toHaveValue('typed before hydration');
  await composer(page).press('Enter');
  await expect(assistantMessages(page).last()).toContainText('You said: typed before hydration');
  await expect(modelSelect).toHaveValue(early);
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem('mcp-chat:theme'))).toBe('dark');
  const requests = (await fakeModelRequests(page.request)) as Array<{
    body: { model?: string; messages: unknown[] };
  }>;
  const asked = requests.findLast((r) => JSON.stringify(r.body.messages).includes('typed before hydration'));
  expect(asked?.body.model).toBe('fake-model-2');
});

test('on the account page, a name and passwords typed before the page has hydrated are the ones saved', async ({
  page,
}) => {
  const release = await holdScripts(page);
  await page.goto('/account', { waitUntil: 'commit' });
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Eve Earlier');
  await page.getByLabel('Current password').fill(EVE.password);
  await page.getByLabel('New password').fill('eve-early-password-2');
  release();

  // Hydrated once the client has fetched the session list.
  await expect(page.locator('[data-session="current"]')).toContainText('This device');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Name saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed. Your other sessions were signed out.')).toBeVisible();

  const me = await (await page.request.get('/api/account')).json();
  expect(me.name).toBe('Eve Earlier');
  // Back to the spec's password, through the API, so the account signs in as before.
  const back = await page.request.post('/api/account/password', {
    data: { currentPassword: 'eve-early-password-2', newPassword: EVE.password },
    headers: originHeaders(),
  });
  expect(back.status()).toBe(200);
});
