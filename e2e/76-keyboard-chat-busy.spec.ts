import { expect, type FileChooser, type Locator, type Page, test } from '@playwright/test';
import { enter, hold, requestServersSpec } from './held-requests';
import { specUser } from './helpers';
import { createConversation, nav } from './history-helpers';
import { card, openChat } from './rich-chat';

// The keyboard on the chat side's buttons busy with their request (74-keyboard-admin-more.spec.ts has the
// admin's): pressed, such a button keeps the focus while the request is on its way (it is aria-disabled, not
// disabled, which Chrome answers by moving the focus to the page's start), and a second press sends nothing.
// The slow or refusing server is simulated with page.route, each request held until the test releases it.

const KIT = specUser('s76', 'Kit Keys');
requestServersSpec('76', KIT);

const refusal = (status: number, message: string) => ({
  status,
  json: { error: { code: 'refused', message } },
});

/**
 * Once its request is held (on its way), `control` keeps the focus and is aria-disabled; Enter again does
 * nothing (the caller checks `held.seen()` once released).
 */
async function staysWhileHeld(page: Page, control: Locator, held: { seen: () => number }) {
  await expect.poll(held.seen).toBe(1);
  await expect(control).toBeFocused();
  await expect(control).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Enter');
  await expect(control).toBeFocused();
}

test('share dialog: Create link and Revoke link keep the focus while busy, a second press sends nothing, and done, pass it on', async ({
  page,
}) => {
  const id = await createConversation(page, 'Busy share');
  await page.goto(`/c/${id}`);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share conversation' });
  const token = 'k'.repeat(32);
  const created = await hold(page, 'POST', `/api/conversations/${id}/share`, {
    status: 201,
    json: { token, url: `http://localhost/share/${token}` },
  });
  const create = dialog.getByRole('button', { name: /^(Create link|Creating…)$/ });
  await enter(page, create);
  await expect(create).toHaveText('Creating…');
  await staysWhileHeld(page, create, created);
  created();
  await expect(dialog.getByRole('textbox', { name: 'Share link' })).toHaveValue(/\/share\/k{32}$/);
  expect(created.seen()).toBe(1);
  // Done, the button goes: the focus moves on to what takes its place.
  await expect(dialog.getByRole('button', { name: 'Copy', exact: true })).toBeFocused();

  const revoked = await hold(page, 'DELETE', `/api/shares/${token}`, { status: 200, json: {} });
  const revoke = dialog.getByRole('button', { name: 'Revoke link' });
  await enter(page, revoke);
  await staysWhileHeld(page, revoke, revoked);
  revoked();
  await expect(dialog.getByRole('status')).toHaveText('Link revoked');
  expect(revoked.seen()).toBe(1);
  await expect(dialog.getByRole('button', { name: 'Create link' })).toBeFocused();
});

test('"Import conversation" keeps the focus while it imports; a second press opens no file picker', async ({
  page,
}) => {
  await page.goto('/');
  const choosers: FileChooser[] = [];
  page.on('filechooser', (chooser) => choosers.push(chooser));
  const imported = await hold(
    page,
    'POST',
    '/api/conversations/import',
    refusal(400, 'The export was refused.'),
  );
  const button = nav(page).getByRole('button', { name: /^(Import conversation|Importing…)$/ });
  await enter(page, button);
  await expect.poll(() => choosers.length).toBe(1);
  await (choosers[0] as FileChooser).setFiles({
    name: 'busy.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({ version: 1, title: 'Busy import', messages: [{ role: 'user', parts: [] }] }),
    ),
  });
  await expect(button).toHaveText('Importing…');
  await staysWhileHeld(page, button, imported);
  imported();
  await expect(nav(page).getByRole('alert')).toHaveText('The export was refused.');
  expect(choosers).toHaveLength(1);
  expect(imported.seen()).toBe(1);
  await expect(button).not.toHaveAttribute('aria-disabled');
  await expect(button).toBeFocused();
});

test('elicitation: Submit keeps the focus while the answer is sent; a second press, or Enter in a field, sends nothing; done, the outcome has it', async ({
  page,
}) => {
  const chat = await openChat(page.context(), '[[tool:t76ask__ask_details]]');
  const form = card(chat, 'ask_details').locator('[data-elicitation="t76ask"]');
  await expect(form).toBeVisible();
  await form.getByLabel('Your name *').fill('Ada');
  const email = form.getByLabel('Email *');
  await email.fill('ada@example.com');
  await form.getByLabel('Size *').selectOption('medium');
  // Held, then let through: the server gets the answer and the tool finishes.
  const answered = await hold(chat, 'POST', /\/requests\//);
  const submit = form.getByRole('button', { name: 'Submit' });
  await enter(chat, submit);
  await staysWhileHeld(chat, submit, answered);
  await expect(form.getByRole('button', { name: 'Decline' })).toHaveAttribute('aria-disabled', 'true');
  await email.press('Enter');
  answered();
  await expect(form).toHaveAttribute('data-status', 'accepted');
  // Done, the form goes: the focus moves to the line that says the outcome (77 has the other cards).
  await expect(form.getByRole('status')).toBeFocused();
  await expect(card(chat, 'ask_details').locator('[data-tool-output]')).toContainText('Submitted:');
  expect(answered.seen()).toBe(1);
  await expect(form.getByRole('status')).toBeFocused();
  await chat.close();
});

test('elicitation, URL mode: the link opened twice while its "accept" is on its way sends it once', async ({
  page,
}) => {
  const chat = await openChat(page.context(), '[[tool:t76ask__open_link]]');
  const request = card(chat, 'open_link').locator('[data-elicitation="t76ask"]');
  const link = request.getByRole('link', { name: 'Open pay.example.com' });
  // The page itself is outside the test network: the new tabs get a stand-in.
  await page.context().route('https://pay.example.com/**', (route) => route.fulfill({ body: 'ok' }));
  const accepted = await hold(chat, 'POST', /\/requests\//);
  for (let i = 0; i < 2; i++) {
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await tab.close();
  }
  await expect.poll(accepted.seen).toBe(1);
  accepted();
  await expect(request).toHaveAttribute('data-status', 'completed');
  expect(accepted.seen()).toBe(1);
  await chat.close();
});

test('server connect: Save (a value each user supplies) keeps the focus while it saves; a second press sends nothing', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: /^Tools · / }).click();
  const row = page.getByRole('dialog', { name: 'Tool settings' }).locator('[data-tool-server="t76vals"]');
  const value = row.getByLabel('Your T76_TOKEN for t76vals');
  await value.fill('kit-secret');
  const saved = await hold(
    page,
    'PUT',
    '/api/mcp/connections/t76vals/values',
    refusal(400, 'The value was refused.'),
  );
  const save = row.getByRole('button', { name: /^(Save|Saving…)$/ });
  await enter(page, save);
  await expect(save).toHaveText('Saving…');
  await staysWhileHeld(page, save, saved);
  await value.press('Enter');
  saved();
  await expect(row.getByRole('alert')).toHaveText('The value was refused.');
  expect(saved.seen()).toBe(1);
  await expect(save).not.toHaveAttribute('aria-disabled');
});

test('delete account: the button keeps the focus while it deletes; a second press sends nothing', async ({
  page,
}) => {
  await page.goto('/account');
  const button = page.getByRole('button', { name: 'Delete account' });
  // Not yet confirmed, it is a real disabled button (nothing is on its way).
  await expect(button).toBeDisabled();
  const confirm = page.getByLabel(/Type your email/);
  await confirm.fill(KIT.email);
  // Refused, so the account stays.
  const deleted = await hold(page, 'DELETE', '/api/account', refusal(500, 'Try later.'));
  await enter(page, button);
  await staysWhileHeld(page, button, deleted);
  await confirm.press('Enter');
  deleted();
  await expect(page.locator('form').filter({ has: button }).getByRole('alert')).toHaveText(
    'Could not delete the account. Try again.',
  );
  expect(deleted.seen()).toBe(1);
  await expect(button).not.toHaveAttribute('aria-disabled');
});
