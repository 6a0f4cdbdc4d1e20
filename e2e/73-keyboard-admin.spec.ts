import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { adminContext } from './account-helpers';
import { ADMIN, ensureUsers, originHeaders, signIn, specUser } from './helpers';

// The keyboard on the pages other than the chat (the admin pages, the account, the assistants, sign-in):
// after an action the focus stays where the user works, never dropped to the page's start, and what a
// screen reader is told names the thing it is about. (The chat page's own: 72-keyboard-focus.spec.ts; the
// account's sessions: 41-account.spec.ts.)

const KIT = specUser('s73', 'Kit Keys');
const ROW = specUser('s73', 'Row Actions');
const h = originHeaders();
/** Servers, providers and Kit's assistants this spec adds (last by name, so their neighbours are known). */
const SERVERS = ['zz73-a', 'zz73-b', 'zz73-c', 'zz73-detail'];
const PROVIDERS = ['zz73 Alpha', 'zz73 Beta', 'zz73 Gamma', 'zz73 Form'];

type Item = { id: string; name: string; mine?: boolean };

/** Deletes the items listed at `list` that `ours` picks (each at `list`/id). */
async function removeFrom(request: APIRequestContext, list: string, ours: (item: Item) => boolean) {
  const { items } = (await (await request.get(list)).json()) as { items: Item[] };
  for (const item of items.filter(ours)) await request.delete(`${list}/${item.id}`, { headers: h });
}

async function removeOurs(browser: Browser) {
  const admin = await adminContext(browser);
  await removeFrom(admin.request, '/api/mcp/servers', (s) => SERVERS.includes(s.name));
  await removeFrom(admin.request, '/api/admin/providers', (p) => PROVIDERS.includes(p.name));
  const kit = await browser.newContext();
  await signIn(kit, KIT);
  await removeFrom(kit.request, '/api/assistants', (a) => a.mine === true);
  await Promise.all([admin.close(), kit.close()]);
}

test.beforeAll(({ browser }) => ensureUsers(browser, KIT, ROW));
test.beforeEach(({ browser }) => removeOurs(browser));
// Later specs resolve `[[tool:now]]` and the like by suffix: leave only the servers they expect.
test.afterAll(({ browser }) => removeOurs(browser));

/** Presses Enter on `control` (focused first, as Tab would leave it). */
async function enter(page: Page, control: ReturnType<Page['getByRole']>) {
  await control.focus();
  await page.keyboard.press('Enter');
}

test('a dialog closed from the keyboard gives the focus back to the button that opened it', async ({
  page,
}) => {
  await signIn(page, KIT);
  await page.goto('/assistants');
  const create = page.getByRole('button', { name: 'New assistant' });
  const dialog = page.getByRole('dialog');
  await enter(page, create);
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(create).toBeFocused();

  await enter(page, create);
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Kit’s helper');
  await dialog.getByRole('button', { name: 'Create' }).press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(create).toBeFocused();
  // Edit, saved: back on its Edit button.
  const edit = page.getByRole('button', { name: 'Edit Kit’s helper' });
  await enter(page, edit);
  await dialog.getByRole('button', { name: 'Save' }).press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(edit).toBeFocused();

  await signIn(page, ADMIN);
  await page.goto('/admin/mcp');
  for (const name of ['Import', 'Add server']) {
    const opener = page.getByRole('button', { name, exact: true });
    await enter(page, opener);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
  }
});

test('deleting from the keyboard: the focus goes to the next item’s control, the one above for the last', async ({
  page,
}) => {
  const dialog = page.getByRole('dialog');
  const confirm = async (label: string) => {
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: label, exact: true }).press('Enter');
    await expect(dialog).toHaveCount(0);
  };

  // Assistants: the next card's Delete (named for its assistant).
  await signIn(page, KIT);
  for (const name of ['zz73 Alpha', 'zz73 Beta', 'zz73 Gamma']) {
    const res = await page.request.post('/api/assistants', { data: { name, instructions: '' }, headers: h });
    expect(res.status()).toBe(201);
  }
  await page.goto('/assistants');
  const del = (name: string) => page.getByRole('button', { name: `Delete ${name}`, exact: true });
  await enter(page, del('zz73 Beta'));
  await confirm('Delete');
  await expect(page.locator('[data-assistant="zz73 Beta"]')).toHaveCount(0);
  await expect(del('zz73 Gamma')).toBeFocused();
  await page.keyboard.press('Enter');
  await confirm('Delete');
  await expect(page.locator('[data-assistant="zz73 Gamma"]')).toHaveCount(0);
  await expect(del('zz73 Alpha')).toBeFocused();

  // Providers: the same, and Cancel leaves the focus on the provider's own Delete.
  await signIn(page, ADMIN);
  for (const name of PROVIDERS.slice(0, 3)) {
    const res = await page.request.post('/api/admin/providers', {
      data: { name, baseURL: 'https://keys.example.com/v1', models: ['m1'] },
      headers: h,
    });
    expect(res.status()).toBe(201);
  }
  await page.goto('/admin/providers');
  await enter(page, del('zz73 Beta'));
  await confirm('Cancel');
  await expect(del('zz73 Beta')).toBeFocused();
  await page.keyboard.press('Enter');
  await confirm('Delete');
  await expect(page.locator('[data-provider="zz73 Beta"]')).toHaveCount(0);
  await expect(del('zz73 Gamma')).toBeFocused();
  await page.keyboard.press('Enter');
  await confirm('Delete');
  await expect(page.locator('[data-provider="zz73 Gamma"]')).toHaveCount(0);
  await expect(del('zz73 Alpha')).toBeFocused();

  // MCP servers (their Delete is in the row's actions menu): the next row's actions button.
  for (const name of ['zz73-a', 'zz73-b', 'zz73-c']) {
    const res = await page.request.post('/api/mcp/servers', {
      data: { name, transport: 'builtin', builtin: 'calculator' },
      headers: h,
    });
    expect(res.status()).toBe(201);
  }
  await page.goto('/admin/mcp');
  const actions = (name: string) => page.getByRole('button', { name: `Actions for ${name}`, exact: true });
  const deleteServer = async (name: string) => {
    await enter(page, actions(name));
    await page.getByRole('menuitem', { name: 'Delete' }).press('Enter');
    await confirm('Delete');
    await expect(page.locator(`[data-server-row="${name}"]`)).toHaveCount(0);
  };
  await deleteServer('zz73-b');
  await expect(actions('zz73-c')).toBeFocused();
  await deleteServer('zz73-c');
  await expect(actions('zz73-a')).toBeFocused();
});

test('a row action without a dialog (Disable, Enable, Sign out everywhere) leaves the focus on the row’s menu button', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  const actions = page.getByRole('button', { name: `Actions for ${ROW.email}`, exact: true });
  const row = page.locator(`[data-user="${ROW.email}"]`);
  const choose = async (action: string) => {
    await enter(page, actions);
    await page.getByRole('menuitem', { name: action, exact: true }).press('Enter');
    await expect(page.getByRole('menu')).toHaveCount(0);
  };
  await choose('Disable');
  await expect(row).toContainText('disabled');
  await expect(actions).toBeFocused();
  await choose('Enable');
  await expect(row).not.toContainText('disabled');
  await expect(actions).toBeFocused();
  await choose('Sign out everywhere');
  await expect(row.getByRole('status')).toContainText('signed out everywhere');
  await expect(actions).toBeFocused();

  const res = await page.request.post('/api/mcp/servers', {
    data: { name: 'zz73-a', transport: 'builtin', builtin: 'calculator' },
    headers: h,
  });
  expect(res.status()).toBe(201);
  await page.goto('/admin/mcp');
  const server = page.getByRole('button', { name: 'Actions for zz73-a', exact: true });
  await enter(page, server);
  await page.getByRole('menuitem', { name: 'Disable' }).press('Enter');
  await expect(page.locator('[data-server-row="zz73-a"] [data-status]')).toHaveAttribute(
    'data-status',
    'disabled',
  );
  await expect(server).toBeFocused();
});

test('a control busy with its action keeps the focus: sign-in, a server’s and its tools’ controls, a provider’s Test, the language, Change password', async ({
  page,
  browser,
}) => {
  // Signing in with a wrong password from the button: the refusal is announced, the button keeps the focus.
  const stranger = await browser.newContext();
  const signInPage = await stranger.newPage();
  await signInPage.goto('/sign-in');
  await signInPage.getByLabel('Email').fill(KIT.email);
  await signInPage.getByLabel('Password').fill('not-kits-password');
  const signInButton = signInPage.getByRole('button', { name: 'Sign in', exact: true });
  await enter(signInPage, signInButton);
  await expect(signInPage.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toBeVisible();
  await expect(signInButton).toBeFocused();
  await stranger.close();

  await signIn(page, ADMIN);
  const created = await page.request.post('/api/mcp/servers', {
    data: { name: 'zz73-detail', transport: 'builtin', builtin: 'time' },
    headers: h,
  });
  expect(created.status()).toBe(201);
  await page.goto(`/admin/mcp/${(await created.json()).id}`);
  const card = page.locator('[data-tool-admin][data-tool-name="now"]');
  const enabled = card.getByRole('checkbox', { name: 'Enabled now' });
  const patched = () => page.waitForResponse((r) => r.url().includes('/tools/now') && r.ok());
  await enabled.focus();
  await Promise.all([patched(), page.keyboard.press('Space')]);
  await expect(card).toHaveAttribute('data-enabled', 'false');
  await expect(enabled).toBeFocused();
  const approval = card.getByRole('combobox', { name: 'Approval for now' });
  const before = await approval.inputValue();
  await approval.focus();
  await Promise.all([patched(), page.keyboard.press(before === 'ask' ? 'ArrowUp' : 'ArrowDown')]);
  await expect(approval).not.toHaveValue(before);
  await expect(approval).toBeFocused();
  const test = page.getByRole('button', { name: 'Test connection' });
  await enter(page, test);
  await expect(page.locator('[data-test-result]')).toHaveAttribute('data-ok', 'true');
  await expect(page.locator('[data-test-result]')).toHaveText(
    /^OK: connected and listed \d+ tools in \d+ ms$/,
  );
  await expect(test).toBeFocused();
  await enter(page, page.getByRole('button', { name: 'Disable', exact: true }));
  await expect(page.getByRole('button', { name: 'Enable', exact: true })).toBeFocused();

  await page.goto('/admin/providers');
  const envTest = page.getByRole('button', { name: 'Test', exact: true });
  await enter(page, envTest);
  await expect(page.locator('[data-provider-test]').first()).toBeVisible();
  await expect(envTest).toBeFocused();

  // The language, chosen with the arrow keys: the page changes language and the list keeps the focus.
  await signIn(page, KIT);
  await page.goto('/account');
  const language = page.getByRole('main').getByRole('combobox').first();
  await expect(language).toHaveAccessibleName('Language');
  await language.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('账户');
  await expect(language).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account');
  await expect(language).toBeFocused();
  // A wrong current password, from the button: refused and announced, the button keeps the focus.
  await page.getByLabel('Current password').fill('not-kits-password');
  await page.getByLabel('New password').fill('kit-new-password-2');
  const change = page.getByRole('button', { name: 'Change password' });
  await enter(page, change);
  await expect(page.getByRole('alert').filter({ hasText: 'The current password is wrong.' })).toBeVisible();
  await expect(change).toBeFocused();
});

test('admin forms by keyboard: the provider form opens onto its first field; a refused field is focused and described by its error; Cancel and saving give the focus back', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/providers');
  const add = page.getByRole('button', { name: 'Add provider' });
  const form = page.getByRole('form', { name: 'Add provider' });
  await enter(page, add);
  await expect(form.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await form.getByRole('button', { name: 'Cancel' }).press('Enter');
  await expect(form).toHaveCount(0);
  await expect(add).toBeFocused();

  await page.keyboard.press('Enter');
  await page.keyboard.type('zz73 Form');
  await form.getByRole('textbox', { name: 'Base URL' }).fill('not a url');
  await form.getByRole('button', { name: 'Add provider' }).press('Enter');
  const url = form.getByRole('textbox', { name: 'Base URL' });
  await expect(url).toBeFocused();
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(url).toHaveAccessibleDescription('must be an http(s) URL');
  await url.fill('https://form.example.com/v1');
  await url.press('Enter');
  await expect(page.locator('[data-provider="zz73 Form"]')).toBeVisible();
  await expect(add).toBeFocused();

  const edit = page.getByRole('button', { name: 'Edit zz73 Form', exact: true });
  await enter(page, edit);
  const editing = page.getByRole('form', { name: 'Edit zz73 Form' });
  await expect(editing.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await editing.getByRole('button', { name: 'Save' }).press('Enter');
  await expect(editing).toHaveCount(0);
  await expect(edit).toBeFocused();
});
