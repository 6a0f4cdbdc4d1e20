import { resolve } from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { ADMIN, chooseRowAction, originHeaders, signIn } from './helpers';
import { startIdp } from './sso-helpers';

// One admin with an edit form open in two tabs: a save from the tab opened before the other tab's
// save is refused (409) instead of silently putting the old values back.

const SERVER = 'conflicts-server';
const PROVIDER = 'conflicts-provider';
const FIXTURE = resolve('e2e/fixtures/test-mcp-server.mjs');
const CHANGED = /This (server|provider) was changed since you opened it \(by another admin or tab\)/;

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  await signIn(context, ADMIN);
  const servers = (await (await context.request.get('/api/mcp/servers')).json()).items as Array<{
    id: string;
    name: string;
  }>;
  for (const s of servers.filter((s) => s.name === SERVER))
    await context.request.delete(`/api/mcp/servers/${s.id}`, { headers: originHeaders() });
  const providers = (await (await context.request.get('/api/admin/providers')).json()).items as Array<{
    id: string;
    name: string;
  }>;
  for (const p of providers.filter((p) => p.name === PROVIDER))
    await context.request.delete(`/api/admin/providers/${p.id}`, { headers: originHeaders() });
});

test.afterAll(async () => {
  await context.close();
});

const settings = async () =>
  (await (await context.request.get('/api/admin/settings')).json()) as {
    signupOpen: boolean;
    maxSteps: number;
    maxToolCalls: number;
  };
const patchSettings = async (data: Record<string, number | boolean>) =>
  expect(
    (await context.request.patch('/api/admin/settings', { headers: originHeaders(), data })).status(),
  ).toBe(200);

/** Two tabs of the same admin on `path`. */
async function twoTabs(path: string): Promise<[Page, Page]> {
  const tabs = [await context.newPage(), await context.newPage()] as [Page, Page];
  for (const tab of tabs) await tab.goto(path);
  return tabs;
}

test('an MCP server edited in two tabs: the later save says it was changed, keeps its values, and stores nothing', async () => {
  const created = await context.request.post('/api/mcp/servers', {
    headers: originHeaders(),
    data: {
      name: SERVER,
      transport: 'stdio',
      command: 'node',
      args: [FIXTURE, 'stdio'],
      env: { MODE: 'first' },
      enabled: false,
    },
  });
  expect(created.status()).toBe(201);
  const [one, two] = await twoTabs('/admin/mcp');
  const forms = [] as ReturnType<Page['getByRole']>[];
  for (const tab of [one, two]) {
    await chooseRowAction(tab, SERVER, 'Edit');
    const form = tab.getByRole('dialog', { name: `Edit server ${SERVER}` });
    await expect(form.getByLabel('Timeout (ms)')).toHaveValue('60000');
    forms.push(form);
  }
  const [formOne, formTwo] = forms as [(typeof forms)[0], (typeof forms)[0]];

  await formOne.getByLabel('Environment (KEY=VALUE per line)').fill('MODE=second');
  await formOne.getByRole('button', { name: 'Save' }).click();
  await expect(formOne).toBeHidden();

  await formTwo.getByLabel('Timeout (ms)').fill('90000');
  await formTwo.getByRole('button', { name: 'Save' }).click();
  await expect(formTwo.getByRole('alert')).toHaveText(CHANGED);
  await expect(formTwo.getByRole('alert')).toContainText('your edits are still in the form');
  await expect(formTwo).toBeVisible();
  await expect(formTwo.getByLabel('Timeout (ms)')).toHaveValue('90000');

  const exported = (await (await context.request.get('/api/mcp/servers/export?secrets=1')).json()) as {
    mcpServers: Record<string, { env: Record<string, string>; timeoutMs: number }>;
  };
  expect(exported.mcpServers[SERVER]).toMatchObject({ env: { MODE: 'second' }, timeoutMs: 60_000 });

  // As the message says: closed and opened again (the env value masked), saving keeps tab 1's change.
  await formTwo.getByRole('button', { name: 'Cancel' }).click();
  await expect(formTwo).toBeHidden();
  await chooseRowAction(two, SERVER, 'Edit');
  await formTwo.getByLabel('Timeout (ms)').fill('90000');
  await formTwo.getByRole('button', { name: 'Save' }).click();
  await expect(formTwo).toBeHidden();
  const after = (await (
    await context.request.get('/api/mcp/servers/export?secrets=1')
  ).json()) as typeof exported;
  expect(after.mcpServers[SERVER]).toMatchObject({ env: { MODE: 'second' }, timeoutMs: 90_000 });
  await context.request.delete(`/api/mcp/servers/${(await created.json()).id}`, { headers: originHeaders() });
});

test('a provider edited in two tabs: the later save says it was changed, keeps its values, and stores nothing', async () => {
  const created = await context.request.post('/api/admin/providers', {
    headers: originHeaders(),
    data: { name: PROVIDER, baseURL: 'https://conflicts.example.com/v1', models: ['m1'] },
  });
  expect(created.status()).toBe(201);
  const [one, two] = await twoTabs('/admin/providers');
  const form = (tab: Page) => tab.getByRole('form', { name: `Edit ${PROVIDER}` });
  for (const tab of [one, two]) {
    await tab.locator(`[data-provider="${PROVIDER}"]`).getByRole('button', { name: 'Edit' }).click();
    await expect(form(tab).getByRole('textbox', { name: 'Models' })).toHaveValue('m1');
  }

  await form(one).getByRole('textbox', { name: 'Models' }).fill('m1\nm2');
  await form(one).getByRole('button', { name: 'Save provider' }).click();
  await expect(form(one)).toBeHidden();

  await form(two).getByLabel('Base URL').fill('https://elsewhere.example.com/v1');
  await form(two).getByRole('button', { name: 'Save provider' }).click();
  await expect(form(two).getByRole('alert')).toHaveText(CHANGED);
  await expect(form(two).getByLabel('Base URL')).toHaveValue('https://elsewhere.example.com/v1');

  const items = (await (await context.request.get('/api/admin/providers')).json()).items as Array<{
    name: string;
    baseURL: string;
    models: string[];
  }>;
  expect(items.find((p) => p.name === PROVIDER)).toMatchObject({
    baseURL: 'https://conflicts.example.com/v1',
    models: ['m1', 'm2'],
  });
  await context.request.delete(`/api/admin/providers/${(await created.json()).id}`, {
    headers: originHeaders(),
  });
});

test('the SSO settings saved in two tabs: the later save says another admin saved, keeps its values, and stores nothing', async () => {
  const idp = await startIdp({ clientId: 'mcp-chat-s59', clientSecret: 'oidc-s59-client-secret' });
  try {
    const put = (name: string) =>
      context.request.put('/api/admin/sso', {
        headers: originHeaders(),
        data: {
          name,
          issuer: idp.issuer,
          clientId: 'mcp-chat-s59',
          clientSecret: 'oidc-s59-client-secret',
          allowedDomains: ['example.com'],
        },
      });
    expect((await put('Conflicts IdP')).status()).toBe(200);
    const [one, two] = await twoTabs('/admin/sso');
    for (const tab of [one, two]) await expect(tab.getByLabel('Display name')).toHaveValue('Conflicts IdP');

    await one.getByLabel('Display name').fill('Saved first');
    await one.getByRole('button', { name: 'Save provider' }).click();
    await expect(one.getByRole('status').first()).toHaveText(/Saved\./);

    await two.getByLabel('Allowed email domains').fill('elsewhere.example');
    await two.getByRole('button', { name: 'Save provider' }).click();
    await expect(two.getByRole('alert').first()).toHaveText(
      /Another admin \(or another tab\) saved these settings/,
    );
    await expect(two.getByLabel('Allowed email domains')).toHaveValue('elsewhere.example');

    const stored = (await (await context.request.get('/api/admin/sso')).json()).provider;
    expect(stored).toMatchObject({ name: 'Saved first', allowedDomains: ['example.com'] });
    expect(JSON.stringify(stored)).not.toContain('oidc-s59-client-secret');

    // As the message says: saved again, the form's values replace the other tab's.
    await two.getByRole('button', { name: 'Save provider' }).click();
    await expect(two.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    const replaced = (await (await context.request.get('/api/admin/sso')).json()).provider;
    expect(replaced).toMatchObject({ name: 'Conflicts IdP', allowedDomains: ['elsewhere.example'] });
    expect(JSON.stringify(replaced)).not.toContain('oidc-s59-client-secret');
  } finally {
    await context.request.delete('/api/admin/sso', { headers: originHeaders() });
    await idp.close();
  }
});

test('the settings saved in two tabs: the later save is refused, keeps its edits, shows the other save in the fields it did not edit, and stores nothing', async () => {
  const limits = { maxSteps: 10, maxToolCalls: 20 };
  const before = await settings();
  await patchSettings(limits);
  try {
    const [one, two] = await twoTabs('/admin/users');
    for (const tab of [one, two]) await expect(tab.getByLabel('Max steps per turn')).toHaveValue('10');

    await one.getByLabel('Max steps per turn').fill('12');
    await one.getByRole('button', { name: 'Save limits' }).click();
    await expect(one.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

    await two.getByLabel('Max tool calls per turn').fill('25');
    await two.getByRole('button', { name: 'Save limits' }).click();
    await expect(
      two.getByRole('alert').filter({ hasText: /saved the settings after you opened/ }),
    ).toHaveText(
      /Another admin \(or another tab\) saved the settings after you opened them\. Nothing of yours was saved: the fields you changed keep your values and the others now show theirs\./,
    );
    await expect(two.getByLabel('Max tool calls per turn')).toHaveValue('25');
    await expect(two.getByLabel('Max steps per turn')).toHaveValue('12');
    expect(await settings()).toMatchObject({ maxSteps: 12, maxToolCalls: 20 });

    // As the message says: saved again, the edit is stored and the other tab's value stays.
    await two.getByRole('button', { name: 'Save limits' }).click();
    await expect(two.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    expect(await settings()).toMatchObject({ maxSteps: 12, maxToolCalls: 25 });
  } finally {
    await patchSettings({ maxSteps: before.maxSteps, maxToolCalls: before.maxToolCalls });
  }
});

test('sign-up switched in a tab opened before another tab saved: it is switched, and a later save of the limits keeps the other save', async () => {
  const before = await settings();
  await patchSettings({ signupOpen: false, maxSteps: 10, maxToolCalls: 20 });
  try {
    const [one, two] = await twoTabs('/admin/users');
    const signup = two.getByLabel(/Open sign-up/);
    await expect(signup).not.toBeChecked();

    await one.getByLabel('Max steps per turn').fill('12');
    await one.getByRole('button', { name: 'Save limits' }).click();
    await expect(one.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

    // A limit typed but not saved yet, then the box: what the box says is what the admin chose.
    await two.getByLabel('Max tool calls per turn').fill('30');
    await signup.check();
    await expect(two.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await expect(two.getByRole('alert').filter({ hasText: /Another admin/ })).toHaveCount(0);
    await expect(signup).toBeChecked();
    expect(await settings()).toMatchObject({ signupOpen: true, maxSteps: 12, maxToolCalls: 20 });
    // The field the admin did not edit shows the other tab's save; the typed one keeps its value.
    await expect(two.getByLabel('Max steps per turn')).toHaveValue('12');
    await expect(two.getByLabel('Max tool calls per turn')).toHaveValue('30');

    await two.getByRole('button', { name: 'Save limits' }).click();
    await expect(two.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    expect(await settings()).toMatchObject({ signupOpen: true, maxSteps: 12, maxToolCalls: 30 });
  } finally {
    await patchSettings({
      signupOpen: before.signupOpen,
      maxSteps: before.maxSteps,
      maxToolCalls: before.maxToolCalls,
    });
  }
});

test('sign-up switched while the save fails or the server cannot be reached: the box shows the stored state again, with the reason', async () => {
  const before = await settings();
  await patchSettings({ signupOpen: false });
  const page = await context.newPage();
  try {
    await page.goto('/admin/users');
    const signup = page.getByLabel(/Open sign-up/);
    await expect(signup).not.toBeChecked();
    // The server answers the save with an error (as a database that cannot write would).
    await page.route('**/api/admin/settings', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 503,
            json: { error: { code: 'unavailable', message: 'The database is busy.' } },
          })
        : route.fallback(),
    );
    // A click, not check(): the box flips back as soon as the failure arrives, which check() would
    // take for a click that did nothing.
    await signup.click();
    await expect(page.getByRole('alert').filter({ hasText: 'The database is busy.' })).toBeVisible();
    await expect(signup).not.toBeChecked();
    expect((await settings()).signupOpen).toBe(false);

    // No answer at all (the server is gone): said in words, not as the browser's "Failed to fetch".
    await page.unrouteAll();
    await page.route('**/api/admin/settings', (route) =>
      route.request().method() === 'PATCH' ? route.abort('connectionrefused') : route.fallback(),
    );
    await signup.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Could not reach the server' })).toHaveText(
      'Could not reach the server. Check your connection and try again.',
    );
    await expect(signup).not.toBeChecked();
    expect((await settings()).signupOpen).toBe(false);
  } finally {
    await page.close();
    await patchSettings({ signupOpen: before.signupOpen });
  }
});
