import { expect, test } from '@playwright/test';
import { FAKE_MODEL_URL } from '../playwright.config';
import { ADMIN, chooseRowAction, ensureUser, signIn, specUser } from './helpers';

const BOB = specUser('s05', 'Bob User');

test('admin creates a user through the form, changes a role, and toggles sign-up', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  const form = page
    .getByRole('form')
    .or(page.locator('form').filter({ hasText: 'Create user' }))
    .first();
  await form.getByLabel('Name').fill('Frances Form');
  await form.getByLabel('Email').fill('frances@example.com');
  await form.getByLabel('Password').fill('frances-password-1');
  await form.getByRole('button', { name: 'Create user' }).click();
  const row = page.locator('[data-user="frances@example.com"]');
  await expect(row).toContainText('Frances Form');
  await row.getByLabel('Role of frances@example.com').selectOption('admin');
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get('/api/admin/users')).json()).items as Array<{
            email: string;
            role: string;
          }>
        ).find((u) => u.email === 'frances@example.com')?.role,
    )
    .toBe('admin');
  // Enable/Disable, Reset password and Sign out everywhere are in the row's actions menu.
  await chooseRowAction(page, 'frances@example.com', 'Disable');
  await expect(row).toContainText('disabled');
  await page.getByRole('button', { name: 'Actions for frances@example.com', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Enable', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(
    page.getByRole('button', { name: 'Actions for frances@example.com', exact: true }),
  ).toBeFocused();

  // A duplicate email is refused beside the field.
  await form.getByLabel('Name').fill('Again');
  await form.getByLabel('Email').fill('frances@example.com');
  await form.getByLabel('Password').fill('frances-password-1');
  await form.getByRole('button', { name: 'Create user' }).click();
  await expect(form.getByRole('alert')).toContainText('already');

  const signup = page.getByLabel(/Open sign-up/);
  await signup.check();
  await expect
    .poll(async () => (await (await page.request.get('/api/admin/settings')).json()).signupOpen)
    .toBe(true);
  await signup.uncheck();
  await expect
    .poll(async () => (await (await page.request.get('/api/admin/settings')).json()).signupOpen)
    .toBe(false);
});

test('admin adds a provider from a preset, fetches its models, tests it; users can pick its models', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/providers');
  await expect(page.getByText('From the environment')).toBeVisible();
  await page.getByRole('button', { name: 'Add provider' }).click();
  await page.getByRole('button', { name: 'Ollama' }).click();
  await page.getByLabel('Name').fill('LocalFake');
  await page.getByLabel('Base URL').fill(`${FAKE_MODEL_URL}/v1`);
  await page.getByRole('button', { name: 'Fetch models' }).click();
  await expect(page.getByRole('textbox', { name: 'Models' })).toHaveValue(/fake-model\nfake-model-2/);
  await page.getByRole('button', { name: 'Add provider' }).last().click();
  const card = page.locator('[data-provider="LocalFake"]');
  await expect(card).toContainText('no key');
  await card.getByRole('button', { name: 'Test' }).click();
  await expect(card.locator('[data-provider-test="ok"]')).toContainText(/\d+ ms/);

  const models = (await (await page.request.get('/api/models')).json()).items as Array<{ id: string }>;
  expect(models.map((m) => m.id)).toEqual(
    expect.arrayContaining(['fake-model', 'LocalFake/fake-model', 'LocalFake/fake-model-2']),
  );
  // The stored key is write-only: the API never returns it.
  const list = await (await page.request.get('/api/admin/providers')).text();
  expect(list).not.toContain('apiKeyEncrypted');
});

test('non-admins get the 404 page on admin pages and 403 from admin APIs', async ({ browser }) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, BOB);
  const ctx = await browser.newContext();
  await signIn(ctx, BOB);
  const page = await ctx.newPage();
  for (const path of ['/admin/users', '/admin/providers', '/admin/audit']) {
    expect((await page.goto(path))?.status()).toBe(404);
  }
  expect((await page.request.get('/api/admin/users')).status()).toBe(403);
  await Promise.all([admin.close(), ctx.close()]);
});
