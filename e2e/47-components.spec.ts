import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  ADMIN,
  assistantMessages,
  chooseRowAction,
  composer,
  conversationIdFromUrl,
  ensureUser,
  send,
  signIn,
  specUser,
} from './helpers';

// Issue 18 (components and layout): the Tools and Usage popovers (Radix Popover), tooltips on icon-only
// buttons (Radix Tooltip), the users list's actions menu and cards, the chat header's "More actions" menu
// on a phone, and the servers table's dialogs giving the focus back to their row's actions button.

const PIA = specUser('s47', 'Pia Popover');
const PHONE = { width: 390, height: 760 };

test.beforeAll(async ({ browser }) => {
  const admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, PIA);
  await admin.close();
});

/** The element's box lies inside the viewport (not cut off at a phone's width). */
async function expectInsideViewport(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  if (!box || !size) throw new Error('no box or viewport');
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(size.width);
  expect(box.y + box.height).toBeLessThanOrEqual(size.height);
}

test('Tools popover at a phone width: inside the screen; Escape and a click outside close it; focus goes back', async ({
  page,
}) => {
  await signIn(page, PIA);
  await page.setViewportSize(PHONE);
  await page.goto('/');
  const button = page.getByRole('button', { name: /^Tools · / });
  const settings = page.getByRole('dialog', { name: 'Tool settings' });
  // The button is in the server's HTML; it opens the popover once the page has hydrated.
  await expect(async () => {
    if (!(await settings.isVisible())) await button.click();
    await expect(settings).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expectInsideViewport(page, settings);
  await expect(settings.locator(':focus')).toHaveCount(1);

  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  await button.click();
  await expect(settings).toBeVisible();
  await page.locator('header h1').click();
  await expect(settings).toBeHidden();
});

test('Usage popover: the totals, inside the screen at a phone width; Escape gives the focus back', async ({
  page,
}) => {
  await signIn(page, PIA);
  await page.goto('/');
  await send(page, 'Popover totals [[say:one two]]');
  await expect(page).toHaveURL(/\/c\//);
  await expect(assistantMessages(page).last()).toContainText('one two');
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);

  await page.setViewportSize(PHONE);
  const button = page.getByRole('button', { name: 'Usage', exact: true });
  const usage = page.getByRole('dialog', { name: 'Usage in this conversation' });
  await button.click();
  await expect(usage.locator('[data-total-tokens]')).toHaveText(/^\d+$/);
  await expectInsideViewport(page, usage);
  await page.keyboard.press('Escape');
  await expect(usage).toBeHidden();
  await expect(button).toBeFocused();

  await button.click();
  await expect(usage).toBeVisible();
  // A click outside (on the answer's text) closes it.
  await assistantMessages(page).last().getByText('one two').click();
  await expect(usage).toBeHidden();
});

test('Export is a menu of the two downloads, with the mouse and the keyboard', async ({ page }) => {
  await signIn(page, PIA);
  await page.goto('/');
  await send(page, 'Export me [[say:three four]]');
  await expect(page).toHaveURL(/\/c\//);
  await expect(assistantMessages(page).last()).toContainText('three four');
  const id = conversationIdFromUrl(page);
  const button = page.getByRole('button', { name: 'Export', exact: true });
  const menu = page.getByRole('menu');
  await button.click();
  await expect(menu.getByRole('menuitem')).toHaveText(['Markdown', 'JSON']);
  await expect(menu.getByRole('menuitem', { name: 'Markdown' })).toHaveAttribute(
    'href',
    `/api/conversations/${id}/export?format=md`,
  );
  const download = page.waitForEvent('download');
  await menu.getByRole('menuitem', { name: 'JSON' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.json$/);
  await expect(menu).toBeHidden();

  // Keyboard: Enter opens it on its first item; Escape closes it and the focus goes back to the button.
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('menuitem', { name: 'Markdown' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
});

test('an icon-only button shows its tooltip on keyboard focus and on hover; its name stays its aria-label', async ({
  page,
}) => {
  await signIn(page, PIA);
  await page.goto('/');
  const attach = page.getByRole('button', { name: 'Attach files', exact: true });
  const tip = page.getByRole('tooltip');
  await expect(attach).not.toHaveAttribute('title');
  // Keyboard: Shift+Tab from the message box reaches the button (retried until the page has hydrated).
  await expect(async () => {
    await composer(page).focus();
    await page.keyboard.press('Shift+Tab');
    await expect(attach).toBeFocused({ timeout: 1_000 });
    await expect(tip).toHaveText('Attach files', { timeout: 1_000 });
  }).toPass();
  await expect(attach).toHaveAttribute('aria-label', 'Attach files');
  await page.keyboard.press('Escape');
  await expect(tip).toHaveCount(0);
  await expect(attach).toBeFocused();

  await composer(page).focus();
  await expect(tip).toHaveCount(0);
  await attach.hover();
  await expect(tip).toHaveText('Attach files');
});

test('users list at a phone width: one card per user with an actions menu, nothing cut off', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.setViewportSize(PHONE);
  await page.goto('/admin/users');
  const email = PIA.email.toLowerCase();
  const row = page.locator(`[data-user="${email}"]`);
  await expect(row).toContainText(PIA.name);
  await expectInsideViewport(page, row.getByRole('combobox', { name: `Role of ${email}` }));
  const actions = page.getByRole('button', { name: `Actions for ${email}`, exact: true });
  await expectInsideViewport(page, actions);
  // No inline action buttons in the row any more: they are in the menu.
  await expect(row.getByRole('button')).toHaveCount(1);
  await actions.click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem')).toHaveText(['Disable', 'Reset password', 'Sign out everywhere']);
  await expectInsideViewport(page, menu);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(actions).toBeFocused();

  // A chosen action's dialog takes the focus, and gives it back to the row's button when it closes.
  await chooseRowAction(page, email, 'Reset password');
  const reset = page.getByRole('dialog', { name: `Reset password: ${email}` });
  await expect(reset.getByLabel(`New password for ${email}`)).toBeFocused();
  await expectInsideViewport(page, reset);
  await reset.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(reset).toBeHidden();
  await expect(actions).toBeFocused();

  // The signed-in admin's own row has no actions.
  await expect(page.locator(`[data-user="${ADMIN.email}"]`).getByRole('button')).toHaveCount(0);
});

test('chat header on a phone: the title keeps its room; "More actions" reaches Instructions, Share and Export', async ({
  page,
}) => {
  await signIn(page, PIA);
  await page.goto('/');
  await send(page, 'Header room [[say:five six]]');
  await expect(page).toHaveURL(/\/c\//);
  await expect(assistantMessages(page).last()).toContainText('five six');
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  const header = page.locator('header');
  const title = header.locator('h1');
  const more = header.getByRole('button', { name: 'More actions', exact: true });

  // Wide: the buttons as they were, no overflow menu.
  await expect(header.getByRole('button', { name: 'Instructions', exact: true })).toBeVisible();
  await expect(header.getByRole('button', { name: 'Share', exact: true })).toBeVisible();
  await expect(header.getByRole('button', { name: 'Export', exact: true })).toBeVisible();
  await expect(more).toBeHidden();

  await page.setViewportSize(PHONE);
  await expect(more).toBeVisible();
  await expect(header.getByRole('button', { name: 'Share', exact: true })).toBeHidden();
  await expect(header.getByRole('button', { name: 'Usage', exact: true })).toBeVisible();
  await expect(title).toHaveText(/\S/);
  await expect(title).toBeVisible();
  // Readable: most of the header's width, not squeezed to nothing by the buttons.
  const box = await title.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(PHONE.width / 3);
  await expectInsideViewport(page, more);

  await more.click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem')).toHaveText(['Instructions', 'Share', 'Markdown', 'JSON']);
  await expectInsideViewport(page, menu);
  const id = conversationIdFromUrl(page);
  await expect(menu.getByRole('menuitem', { name: 'JSON' })).toHaveAttribute(
    'href',
    `/api/conversations/${id}/export?format=json`,
  );
  await menu.getByRole('menuitem', { name: 'Share', exact: true }).click();
  const share = page.getByRole('dialog', { name: 'Share conversation' });
  await expect(share).toBeVisible();
  await expect(menu).toBeHidden();
  await expectInsideViewport(page, share);
  await page.keyboard.press('Escape');
  await expect(share).toBeHidden();
  // The menu item is gone: the focus goes back to the menu's button.
  await expect(more).toBeFocused();

  // Keyboard: Enter opens the menu, arrows move, Enter opens Instructions.
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('menuitem', { name: 'Instructions' })).toBeFocused();
  await page.keyboard.press('Enter');
  const instructions = page.getByRole('dialog', { name: 'Conversation instructions' });
  await expect(instructions).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(instructions).toBeHidden();
  await expect(more).toBeFocused();
});

test("servers table: the Edit and Delete dialogs give the focus back to the row's actions button", async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/mcp');
  const actions = page.getByRole('button', { name: 'Actions for tests', exact: true });
  await expect(actions).toBeVisible();

  await chooseRowAction(page, 'tests', 'Edit');
  const edit = page.getByRole('dialog', { name: 'Edit server tests' });
  await expect(edit).toBeVisible();
  await expect(edit.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();
  await expect(actions).toBeFocused();

  await chooseRowAction(page, 'tests', 'Delete');
  const confirm = page.getByRole('dialog', { name: 'Delete server', exact: true });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(actions).toBeFocused();
  await expect(page.locator('[data-server-row="tests"]')).toBeVisible();
});
