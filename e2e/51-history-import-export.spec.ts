// History, part 2 (search and paging are in e2e/10-history.spec.ts; issue 18 for the Markdown import):
// a conversation exported as JSON or Markdown imports back with the same roles and texts, "Import
// conversation" opens the copy and refuses bad files with an error, and the keyboard shortcuts.
import { expect, test } from '@playwright/test';
import { assistantMessages, composer, conversationIdFromUrl, originHeaders, send } from './helpers';
import { createConversation, nav, openAsAdmin, roleAndText, type Stored, searchBox } from './history-helpers';

test.beforeEach(openAsAdmin);

test('export then import through the API gives the same roles and texts', async ({ page }) => {
  const id = await createConversation(page, '[[say:A round trip answer]]');
  const exported = await page.request.get(`/api/conversations/${id}/export?format=json`);
  expect(exported.ok()).toBeTruthy();
  const json = await exported.json();

  const imported = await page.request.post('/api/conversations/import', {
    data: json,
    headers: originHeaders(),
  });
  expect(imported.status()).toBe(201);
  const { id: copyId } = (await imported.json()) as { id: string };
  expect(copyId).not.toBe(id);

  const original = (await (await page.request.get(`/api/conversations/${id}`)).json()) as Stored;
  const copy = (await (await page.request.get(`/api/conversations/${copyId}`)).json()) as Stored;
  expect(roleAndText(original)).toEqual([
    ['user', '[[say:A round trip answer]]'],
    ['assistant', 'A round trip answer'],
  ]);
  expect(roleAndText(copy)).toEqual(roleAndText(original));
  expect(copy.title).toBe(original.title);
});

test('"Import conversation" opens the imported conversation; bad files show an error', async ({ page }) => {
  const data = {
    version: 1,
    title: 'Imported from a file',
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'Hello from a file' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Hello back from a file' }] },
    ],
  };
  const input = 'input[type="file"][aria-label="Import conversation"]';

  await page.setInputFiles(input, {
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{ not json'),
  });
  await expect(nav(page).getByRole('alert')).toContainText('not valid JSON');

  await page.setInputFiles(input, {
    name: 'empty.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"messages":[]}'),
  });
  await expect(nav(page).getByRole('alert')).toBeVisible();
  await expect(nav(page).getByRole('alert')).not.toContainText('not valid JSON');
  await expect(page).toHaveURL(/\/$/);

  // The visible button opens the file picker.
  const chooser = page.waitForEvent('filechooser');
  await nav(page).getByRole('button', { name: 'Import conversation' }).click();
  await (await chooser).setFiles({
    name: 'chat.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(data)),
  });
  await expect(page).toHaveURL(/\/c\//);
  await expect(assistantMessages(page).last()).toContainText('Hello back from a file');
  await expect(page.locator('[data-role="user"]')).toContainText(['Hello from a file']);
  await expect(nav(page).getByRole('link', { name: 'Imported from a file' })).toBeVisible();
  await expect(nav(page).getByRole('alert')).toHaveCount(0);
});

test('keyboard shortcuts: Ctrl+K searches, "?" shows help, Ctrl+Shift+O starts a new chat', async ({
  page,
}) => {
  await expect(composer(page)).toBeFocused();
  // The composer is focused from the server's HTML; the shortcut works once the page has hydrated.
  await expect(async () => {
    await page.keyboard.press('Control+K');
    await expect(searchBox(page)).toBeFocused({ timeout: 1_000 });
  }).toPass();

  // "?" typed into a text field stays a character.
  await composer(page).click();
  await page.keyboard.type('why?');
  await expect(composer(page)).toHaveValue('why?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toHaveCount(0);

  await composer(page).fill('');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Shift+?');
  await expect(help).toBeVisible();
  for (const action of ['New chat', 'Search', 'Send', 'New line', 'Stop', 'Help'])
    await expect(help).toContainText(action);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  await nav(page).getByRole('button', { name: 'Shortcuts' }).click();
  await expect(help).toBeVisible();
  await help.getByRole('button', { name: 'Close' }).click();
  await expect(help).toHaveCount(0);

  await send(page, 'Shortcut check');
  await expect(assistantMessages(page).last()).toContainText('You said');
  await expect(page).toHaveURL(/\/c\//);
  await page.keyboard.press('Control+Shift+O');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('How can I help?')).toBeVisible();
});

test('the Markdown export imports back through "Import conversation"; a Markdown file that is no export is refused', async ({
  page,
}) => {
  const id = await createConversation(page, '[[say:An answer worth **keeping**]]');
  const exported = await page.request.get(`/api/conversations/${id}/export?format=md`);
  expect(exported.ok()).toBeTruthy();
  const markdown = await exported.text();
  expect(markdown).toContain('## Assistant');
  const input = 'input[type="file"][aria-label="Import conversation"]';

  await page.setInputFiles(input, {
    name: 'notes.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# My notes\n\nNot a conversation.\n'),
  });
  await expect(nav(page).getByRole('alert')).toContainText('not a conversation export');

  await page.setInputFiles(input, {
    name: 'chat.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from(markdown),
  });
  await expect(page).not.toHaveURL(new RegExp(`/c/${id}$`));
  await expect(page).toHaveURL(/\/c\//);
  await expect(assistantMessages(page).last().locator('strong')).toHaveText('keeping');
  const copy = (await (
    await page.request.get(`/api/conversations/${conversationIdFromUrl(page)}`)
  ).json()) as Stored;
  const original = (await (await page.request.get(`/api/conversations/${id}`)).json()) as Stored;
  expect(roleAndText(copy)).toEqual(roleAndText(original));
  expect(copy.title).toBe(original.title);
});
