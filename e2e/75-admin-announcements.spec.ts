import { expect, test } from '@playwright/test';
import { enter } from './held-requests';
import { ADMIN, signIn } from './helpers';

// What the admin pages tell a screen reader: a provider field the server refuses, once (at the field, not
// again at the form's end); a user created from the form (a status, as the new row says nothing), a refused
// one (each reason once: at its field, or at the form's end); the users table's rows, named by their user
// (row headers).

test('a provider field the server refuses is told once, at the field (an item of a list too); a reason of no field at the form’s end', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/providers');
  await page.getByRole('button', { name: 'Add provider' }).click();
  const form = page.getByRole('form', { name: 'Add provider' });
  await form.getByRole('textbox', { name: 'Name' }).fill('zz75 Told');
  const url = form.getByRole('textbox', { name: 'Base URL' });
  await url.fill('not a url');
  await url.press('Enter');
  await expect(url).toBeFocused();
  await expect(url).toHaveAccessibleDescription('must be an http(s) URL');
  // One alert, the field's: the form's end does not say "Invalid request body: baseURL: …" again.
  await expect(form.getByRole('alert')).toHaveCount(1);
  await expect(form.getByRole('alert')).toHaveText('must be an http(s) URL');

  // A reason about one item of a list field is told at that field, with the item's path; a reason that
  // belongs to none of the form's fields is told at its end.
  const message = 'Invalid request body: models.0: too long; headers: not allowed';
  await page.route('**/api/admin/providers', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 400,
          json: {
            error: {
              code: 'bad_request',
              message,
              fields: { 'models.0': 'too long', headers: 'not allowed' },
            },
          },
        })
      : route.fallback(),
  );
  await url.fill('https://told.example.com/v1');
  await url.press('Enter');
  const models = form.getByRole('textbox', { name: 'Models' });
  await expect(models).toBeFocused();
  await expect(models).toHaveAccessibleDescription('models.0: too long');
  await expect(form.getByRole('alert')).toHaveText(['models.0: too long', 'headers: not allowed']);
  await expect(url).not.toHaveAttribute('aria-invalid');
  await form.getByRole('button', { name: 'Cancel' }).click();
});

test('a user created from the form is announced (a status), and Name has the focus for the next one', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  const create = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Create user' }) });
  const status = create.getByRole('status');
  // There, empty, before anything happens: a live region's later text is what gets announced.
  await expect(status).toHaveText('');
  // Unique on each attempt (accounts are never deleted).
  const email = `new-${Date.now().toString(36)}-s75@example.com`;
  const name = create.getByRole('textbox', { name: 'Name' });
  await name.fill('New Seventyfive');
  await create.getByRole('textbox', { name: 'Email' }).fill(email);
  await create.getByRole('textbox', { name: 'Password' }).fill('new-s75-password');
  await create.getByRole('button', { name: 'Create user' }).click();
  await expect(status).toHaveText(`User ${email} created.`);
  await expect(page.locator(`[data-user="${email}"]`)).toBeVisible();
  await expect(name).toBeFocused();
  await expect(name).toHaveValue('');
});

test('create user: a refused field is told at it, a reason of no field in the form’s alert, each once', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  const create = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Create user' }) });
  // The server's refusal (held until the form is sent): one reason at the Email field, one at none of its fields.
  const message = 'Invalid request body: email: already taken; team: no such team';
  await page.route('**/api/admin/users', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 400,
          json: {
            error: { code: 'bad_request', message, fields: { email: 'already taken', team: 'no such team' } },
          },
        })
      : route.fallback(),
  );
  await create.getByRole('textbox', { name: 'Name' }).fill('Refused Seventyfive');
  const email = create.getByRole('textbox', { name: 'Email' });
  await email.fill('refused-s75@example.com');
  await create.getByRole('textbox', { name: 'Password' }).fill('refused-s75-password');
  await create.getByRole('button', { name: 'Create user' }).click();
  await expect(email).toBeFocused();
  await expect(email).toHaveAccessibleDescription('already taken');
  // Two alerts: the field's, and the form's with the reason no field shows (not the field's again).
  await expect(create.getByRole('alert')).toHaveText(['already taken', 'team: no such team']);
});

test('the users table names each row by its user (a row header), under its column headers', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['User', 'Role', 'Created', 'Actions']);
  for (const header of await table.getByRole('columnheader').all())
    await expect(header).toHaveAttribute('scope', 'col');
  const own = page.locator(`[data-user="${ADMIN.email}"]`).getByRole('rowheader');
  await expect(own).toHaveAttribute('scope', 'row');
  await expect(own).toContainText(ADMIN.name);
  await expect(own).toContainText(ADMIN.email);
  // Every row has one.
  const rows = await table.locator('tbody tr').count();
  expect(rows).toBeGreaterThan(0);
  await expect(table.getByRole('rowheader')).toHaveCount(rows);
});

// (Moved from the end of 73-keyboard-admin.spec.ts's keyboard test of the admin forms.)
test('creating a user whose email is taken, from the keyboard: the Email field takes the focus, described by the reason', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  const create = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Create user' }) });
  await create.getByRole('textbox', { name: 'Name' }).fill('Kit Again');
  await create.getByRole('textbox', { name: 'Email' }).fill(ADMIN.email);
  await create.getByRole('textbox', { name: 'Password' }).fill('kit-again-password');
  await enter(page, create.getByRole('button', { name: 'Create user' }));
  const email = create.getByRole('textbox', { name: 'Email' });
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/already/);
});
