import { expect, type Page, test } from '@playwright/test';
import { composer, ensureUsers, signIn, specUser } from './helpers';

// An MCP prompt's arguments dialog (tests:greeting: one argument, `name`, whose server suggests Ada, Alan
// and Grace) used with the mouse while the server's suggestions show under the field, Escape on them, and the
// field staying where it is when they open and close. The / menu and the keyboard are in
// e2e/12-tool-modes.spec.ts, input methods in e2e/63-ime-keys.spec.ts.

const PIA = specUser('s65', 'Pia User');

test.beforeAll(({ browser }) => ensureUsers(browser, PIA));

test.beforeEach(async ({ page }) => {
  await signIn(page, PIA);
});

async function openGreeting(page: Page) {
  await page.goto('/');
  await composer(page).fill('/');
  await page
    .getByRole('listbox', { name: 'Commands' })
    .getByRole('option', { name: /^\/tests:greeting/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Arguments for tests:greeting' });
  const name = dialog.getByRole('combobox', { name: /^name/ });
  await expect(name).toBeFocused();
  return { dialog, name, suggestions: dialog.getByRole('listbox', { name: 'Suggestions for name' }) };
}

/** A suggestion picked with the pointer, then Insert pressed while the server still suggests something. */
async function pickThenInsert(page: Page, press: 'click' | 'tap') {
  const { dialog, name, suggestions } = await openGreeting(page);
  await name.fill('A');
  await expect(suggestions.getByRole('option')).toHaveText(['Ada', 'Alan']);
  await suggestions.getByRole('option', { name: 'Alan' })[press]();
  await expect(name).toHaveValue('Alan');
  await expect(name).toBeFocused();
  await expect(suggestions).toBeHidden();

  // "Gr" is what the user means, though the server still suggests Grace under the field.
  await name.fill('Gr');
  await expect(suggestions.getByRole('option')).toHaveText(['Grace']);
  const insert = dialog.getByRole('button', { name: 'Insert' });
  await expect(insert).toBeInViewport();
  // A real press takes the focus from the field, and the button must still be under the pointer when it
  // is released (closing the suggestions at the press once moved it away: nothing happened).
  await insert[press]();
  await expect(dialog).toBeHidden();
  await expect(composer(page)).toHaveValue('Say hello to Gr');
  await expect(page.locator('[data-role="user"]')).toHaveCount(0);
}

/** The field the user types in stays where it is while the suggestions under it open and close. */
async function fieldStaysPut(page: Page) {
  const { dialog, name, suggestions } = await openGreeting(page);
  await expect(suggestions.getByRole('option')).toHaveText(['Ada', 'Alan', 'Grace']);
  await name.press('Escape');
  await expect(suggestions).toBeHidden();
  await expect(dialog).toBeVisible();
  const closed = await name.boundingBox();

  await name.pressSequentially('A');
  await expect(suggestions.getByRole('option')).toHaveText(['Ada', 'Alan']);
  // The list is all on screen, not cut off by the dialog or the window.
  await expect(suggestions).toBeInViewport({ ratio: 1 });
  const opened = await name.boundingBox();

  await name.press('Escape');
  await expect(suggestions).toBeHidden();
  const reclosed = await name.boundingBox();

  for (const box of [opened, reclosed]) {
    expect(Math.abs((box?.y ?? Number.NaN) - (closed?.y ?? Number.NaN))).toBeLessThanOrEqual(1);
    expect(Math.abs((box?.x ?? Number.NaN) - (closed?.x ?? Number.NaN))).toBeLessThanOrEqual(1);
  }
  // The keys still work on the list: ArrowDown and Enter pick a suggestion.
  await name.pressSequentially('l');
  await expect(suggestions.getByRole('option')).toHaveText(['Alan']);
  await name.press('ArrowDown');
  await name.press('Enter');
  await expect(name).toHaveValue('Alan');
  await expect(suggestions).toBeHidden();
}

test('Escape closes the suggestions and keeps the dialog and what was typed; a second Escape closes it', async ({
  page,
}) => {
  const { dialog, name, suggestions } = await openGreeting(page);
  await name.fill('A');
  await expect(suggestions.getByRole('option')).toHaveText(['Ada', 'Alan']);
  await name.press('Escape');
  await expect(suggestions).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(name).toHaveValue('A');
  await expect(name).toBeFocused();
  await name.press('Escape');
  await expect(dialog).toBeHidden();
});

test('Insert while the server cannot be reached says so, keeps the dialog and the value, and inserts on the next try', async ({
  page,
}) => {
  const { dialog, name } = await openGreeting(page);
  await name.fill('Ada');
  await page.route('**/api/prompts/get', (route) => route.abort('internetdisconnected'));
  await dialog.getByRole('button', { name: 'Insert' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Could not reach the server. Check your connection and try again.',
  );
  await expect(name).toHaveValue('Ada');
  await page.unrouteAll();
  await dialog.getByRole('button', { name: 'Insert' }).click();
  await expect(dialog).toBeHidden();
  await expect(composer(page)).toHaveValue('Say hello to Ada');
});

test('on a desktop, the field does not move when its suggestions open and close', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await fieldStaysPut(page);
});

for (const [screen, viewport] of [
  ['a desktop', { width: 1280, height: 800 }],
  ['a phone-width window', { width: 390, height: 844 }],
] as const) {
  test(`with the mouse on ${screen}: a click on a suggestion picks it, a click on Insert while they show inserts`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await pickThenInsert(page, 'click');
  });
}

test.describe('on a phone', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });

  test('a tap on a suggestion picks it, a tap on Insert while they show inserts', async ({ page }) => {
    await pickThenInsert(page, 'tap');
  });

  test('the field does not move when its suggestions open and close', async ({ page }) => {
    await fieldStaysPut(page);
  });
});
