import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { adminContext } from './account-helpers';
import { enter, hold } from './held-requests';
import { ADMIN, chooseRowAction, ensureUsers, originHeaders, signIn, specUser } from './helpers';

// More of the keyboard on the admin and account pages (73-keyboard-admin.spec.ts has the rest): a control
// busy with its request keeps the focus (it is aria-disabled, not disabled, which Chrome answers by moving
// the focus to the page's start), and a control an action takes away hands the focus somewhere sensible.
// The slow or refusing server is simulated with page.route, each request held until the test releases it.

const h = originHeaders();
const SERVERS = ['zz74-logs'];

async function removeOurs(browser: Browser) {
  const admin = await adminContext(browser);
  const { items } = (await (await admin.request.get('/api/mcp/servers')).json()) as {
    items: Array<{ id: string; name: string }>;
  };
  for (const s of items.filter((s) => SERVERS.includes(s.name)))
    await admin.request.delete(`/api/mcp/servers/${s.id}`, { headers: h });
  await admin.close();
}

/** The user whose password the small form dialog's test resets. */
const RESET = specUser('s74', 'Pia Reset');

test.beforeAll(({ browser }) => ensureUsers(browser, RESET));
test.beforeEach(({ browser }) => removeOurs(browser));
test.afterAll(({ browser }) => removeOurs(browser));

const refusal = (message: string) => ({ error: { code: 'refused', message } });

/** Presses Enter on `control`; while its request is held it is aria-disabled and keeps the focus. */
async function pressWhileHeld(page: Page, control: Locator) {
  await enter(page, control);
  await expect(control).toBeFocused();
  await expect(control).toHaveAttribute('aria-disabled', 'true');
}

test('single sign-on: Save keeps the focus while it checks (a second press sends nothing); Remove hands it to the form’s first field', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  const provider = {
    name: 'Keys ID',
    issuer: 'https://id.example.com',
    clientId: 'chat',
    hasClientSecret: true,
    allowedDomains: ['example.com'],
    updatedAt: '2026-01-01T00:00:00.000Z',
    error: null,
  };
  const overview = {
    provider,
    redirectUri: 'http://localhost/api/auth/sso/callback',
    passwordSignIn: true,
    passwordSignInForced: false,
    linked: true,
    adminsWithSso: 1,
  };
  await page.route('**/api/admin/sso', (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: overview }) : route.fallback(),
  );
  await page.goto('/admin/sso');
  const form = page.locator('form').filter({ has: page.getByRole('textbox', { name: 'Display name' }) });
  const save = form.locator('button[type="submit"]');
  await expect(save).toHaveText('Save provider');
  const put = await hold(page, 'PUT', '/api/admin/sso', {
    status: 400,
    json: refusal('The issuer did not answer.'),
  });
  await pressWhileHeld(page, save);
  await expect(save).toHaveText('Checking the provider…');
  await page.keyboard.press('Enter');
  expect(put.seen()).toBe(1);
  put();
  await expect(form.getByRole('alert')).toHaveText('The issuer did not answer.');
  await expect(save).not.toHaveAttribute('aria-disabled');
  await expect(save).toBeFocused();
  // Saved, the form is drawn anew (the stored version): the new form's Save has the focus.
  const ok = await hold(page, 'PUT', '/api/admin/sso', {
    status: 200,
    json: {
      ...overview,
      provider: { ...provider, updatedAt: '2026-01-02T00:00:00.000Z' },
    },
  });
  await pressWhileHeld(page, save);
  ok();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(save).toBeFocused();

  // Remove takes its own button away: the focus goes to the emptied form's first field.
  await page.route('**/api/admin/sso', (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({ json: { ...overview, provider: null, linked: false } })
      : route.fallback(),
  );
  await page.getByRole('button', { name: 'Remove provider' }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Single sign-on removed.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove provider' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Display name' })).toBeFocused();
});

test('MCP servers: Import’s Preview and Apply, the server form’s Test and Save, a server’s log level keep the focus while busy', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/mcp');
  await page.getByRole('button', { name: 'Import', exact: true }).press('Enter');
  const dialog = page.getByRole('dialog');
  await dialog
    .getByLabel('Claude Desktop config (JSON)')
    .fill('{"mcpServers":{"zz74-new":{"command":"node"}}}');
  const none = { added: [], updated: [], unchanged: [], kept: [] };
  const dryRun = await hold(page, 'POST', '/api/mcp/servers/import', {
    status: 200,
    json: {
      ...none,
      added: ['zz74-new'],
      errors: [],
    },
  });
  const preview = dialog.getByRole('button', { name: 'Preview' });
  await pressWhileHeld(page, preview);
  dryRun();
  await expect(dialog.locator('[data-import-list="added"]')).toContainText('zz74-new');
  await expect(preview).toBeFocused();
  const applied = await hold(page, 'POST', '/api/mcp/servers/import', {
    status: 200,
    json: {
      ...none,
      errors: [{ name: 'zz74-new', message: 'refused by the server' }],
    },
  });
  const apply = dialog.getByRole('button', { name: 'Apply' });
  await pressWhileHeld(page, apply);
  applied();
  await expect(dialog).toContainText('refused by the server');
  // Applied, it stays unavailable (aria-disabled), and keeps the focus.
  await expect(apply).toHaveAttribute('aria-disabled', 'true');
  await expect(apply).toBeFocused();
  await page.keyboard.press('Enter');
  expect(applied.seen()).toBe(1);
  await dialog.getByRole('button', { name: 'Close' }).press('Enter');

  await page.getByRole('button', { name: 'Add server' }).press('Enter');
  const form = page.getByRole('dialog', { name: 'Add server' });
  await form.getByLabel('Transport').selectOption('stdio');
  await form.getByLabel('Name', { exact: true }).fill('zz74-form');
  await form.getByLabel('Command', { exact: true }).fill('node');
  const tested = await hold(page, 'POST', '/api/mcp/servers/test', {
    status: 502,
    json: refusal('Could not start it.'),
  });
  const test_ = form.getByRole('button', { name: /^(Test connection|Testing…)$/ });
  await pressWhileHeld(page, test_);
  tested();
  await expect(form.getByRole('alert')).toHaveText('Could not start it.');
  await expect(test_).toBeFocused();
  const saved = await hold(page, 'POST', '/api/mcp/servers', {
    status: 409,
    json: refusal('The name is taken.'),
  });
  const save = form.locator('button[type="submit"]');
  await pressWhileHeld(page, save);
  await form.getByLabel('Command', { exact: true }).press('Enter');
  expect(saved.seen()).toBe(1);
  saved();
  await expect(form.getByRole('alert')).toHaveText('The name is taken.');
  await expect(form).toBeVisible();

  // A server's log level, changed with the arrow keys while the server is slow to refuse it.
  const created = await page.request.post('/api/mcp/servers', {
    data: { name: 'zz74-logs', transport: 'builtin', builtin: 'time' },
    headers: h,
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  await page.goto(`/admin/mcp/${id}`);
  const level = page.getByRole('combobox', { name: 'Log level' });
  await expect(level).toHaveValue('');
  const patched = await hold(page, 'PATCH', `/api/mcp/servers/${id}`, {
    status: 500,
    json: refusal('Not now.'),
  });
  await level.focus();
  await page.keyboard.press('ArrowDown');
  await expect(level).toBeFocused();
  await expect(level).toHaveAttribute('aria-disabled', 'true');
  patched();
  await expect(page.getByRole('alert').filter({ hasText: 'Not now.' })).toBeVisible();
  await expect(level).toBeFocused();
});

test('account: Disconnect keeps the focus while the server answers', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.route('**/api/mcp/connections', (route) =>
    route.fulfill({ json: { items: [{ server: 'zz74-mine', scope: 'user', status: 'ready' }] } }),
  );
  await page.goto('/account');
  const disconnect = page.getByRole('button', { name: 'Disconnect: zz74-mine' });
  const forgot = await hold(page, 'DELETE', '/api/mcp/connections/zz74-mine', {
    status: 500,
    json: refusal('No.'),
  });
  await pressWhileHeld(page, disconnect);
  await page.keyboard.press('Enter');
  expect(forgot.seen()).toBe(1);
  forgot();
  await expect(page.getByRole('alert').filter({ hasText: /./ }).first()).toBeVisible();
  await expect(disconnect).not.toHaveAttribute('aria-disabled');
  await expect(disconnect).toBeFocused();
});

test('settings: a limit the server refuses is told at its field, which takes the focus', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  const steps = page.getByRole('spinbutton', { name: 'Max steps per turn' });
  const before = await steps.inputValue();
  await steps.fill('100000');
  await enter(page, page.getByRole('button', { name: 'Save limits' }));
  await expect(steps).toBeFocused();
  await expect(steps).toHaveAttribute('aria-invalid', 'true');
  await expect(steps).toHaveAccessibleDescription(/100\b/);
  // Told there, not again at the bottom as "Invalid request body: maxSteps: …".
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid request body' })).toHaveCount(0);
  // Corrected and saved, the field is no longer in error.
  await steps.fill(before);
  await steps.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(steps).not.toHaveAttribute('aria-invalid');
});

test('“Export with secrets” carries its warning: read with the link and shown while it has the focus', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/mcp');
  const link = page.getByRole('link', { name: 'Export with secrets' });
  const warning = 'Includes env and header values in clear text';
  await expect(link).toHaveAccessibleDescription(warning);
  await expect(page.getByText(warning)).toBeHidden();
  await link.focus();
  await expect(page.getByText(warning)).toBeVisible();
});

test('a small form dialog, submitted from the keyboard, keeps the focus on its button while it works and after a refusal; a second Enter meanwhile sends nothing', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  const email = RESET.email.toLowerCase();
  await chooseRowAction(page, email, 'Reset password');
  const reset = page.getByRole('dialog', { name: `Reset password: ${email}` });
  // The server takes its time, then fails (a restart, say).
  let answer = () => {};
  const held = new Promise<void>((resolve) => (answer = resolve));
  let sent = 0;
  await page.route('**/api/admin/users/*/password', async (route) => {
    sent++;
    await held;
    await route.fulfill({ status: 503, json: { error: { code: 'unavailable', message: 'Restarting.' } } });
  });
  await reset.getByLabel(`New password for ${email}`).fill('a-new-password-74');
  const submit = reset.getByRole('button', { name: 'Set password' });
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(submit).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(submit).toBeFocused();
  // Announced as unavailable meanwhile.
  await expect(submit).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Enter');
  answer();
  await expect(reset.getByRole('alert')).toBeVisible();
  await expect(submit).not.toHaveAttribute('aria-disabled');
  await expect(submit).toBeFocused();
  expect(sent).toBe(1);
  await page.unroute('**/api/admin/users/*/password');
  await reset.getByRole('button', { name: 'Cancel', exact: true }).click();
});
