import { expect, type Page, test } from '@playwright/test';
import {
  assistantMessages,
  composer,
  conversationIdFromUrl,
  ensureUsers,
  send,
  signIn,
  specUser,
  userTexts,
} from './helpers';
import { createConversation, nav } from './history-helpers';

// The keyboard after an action in the sidebar or on a message: the focus stays where the user works (never
// dropped to the page's start), and the sidebar's phone drawer opens, closes and leaves by keyboard.

const KAI = specUser('s72', 'Kai Keys');
const DEE = specUser('s72', 'Dee Delete');
const VAL = specUser('s72', 'Val Versions');
const PIP = specUser('s72', 'Pip Phone');
const TAD = specUser('s72', 'Tad Typeahead');

test.beforeAll(({ browser }) => ensureUsers(browser, KAI, DEE, VAL, PIP, TAD));

const stopButton = (page: Page) => page.getByRole('button', { name: 'Stop', exact: true });

test('renaming from the keyboard: Escape or Enter gives the focus back to the Rename button', async ({
  page,
}) => {
  await signIn(page, KAI);
  await page.goto('/');
  await send(page, 'Keys rename');
  await expect(assistantMessages(page).last()).toContainText('You said: Keys rename');
  const rename = nav(page).getByRole('button', { name: 'Rename Keys rename' });
  const title = nav(page).getByRole('textbox', { name: 'Conversation title' });
  await rename.focus();
  await page.keyboard.press('Enter');
  await expect(title).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(title).toHaveCount(0);
  await expect(rename).toBeFocused();

  await page.keyboard.press('Enter');
  await title.fill('Keys renamed');
  await page.keyboard.press('Enter');
  await expect(nav(page).getByRole('link', { name: 'Keys renamed' })).toBeVisible();
  await expect(nav(page).getByRole('button', { name: 'Rename Keys renamed' })).toBeFocused();
});

test('deleting from the keyboard: the focus goes to the next conversation, the one above at the end, then "New chat"', async ({
  page,
}) => {
  await signIn(page, DEE);
  for (const text of ['Oldest one', 'Middle one', 'Newest one']) await createConversation(page, text);
  await page.goto('/');
  const list = nav(page);
  await expect(list.getByRole('heading', { name: 'Today' })).toBeVisible();
  const remove = async (title: string) => {
    await list.getByRole('button', { name: `Delete ${title}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete conversation?' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).press('Enter');
    await expect(list.getByRole('link', { name: title })).toHaveCount(0);
  };
  await remove('Middle one');
  await expect(list.getByRole('link', { name: 'Oldest one' })).toBeFocused();
  await remove('Oldest one');
  await expect(list.getByRole('link', { name: 'Newest one' })).toBeFocused();
  await remove('Newest one');
  await expect(list.getByRole('link', { name: 'New chat' })).toBeFocused();
});

test('deleting the conversation begun in this tab shows a new chat, not the deleted one', async ({
  page,
}) => {
  await signIn(page, DEE);
  await page.goto('/');
  // Its first message moved the URL with history.replaceState; a delete once left it on screen under "/".
  await send(page, 'Delete me while open');
  await expect(assistantMessages(page).last()).toContainText('You said: Delete me while open');
  const deleted = conversationIdFromUrl(page);
  await nav(page).getByRole('button', { name: 'Delete Delete me while open' }).click();
  await page
    .getByRole('dialog', { name: 'Delete conversation?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page).toHaveURL(/\/$/);
  await expect(userTexts(page)).toHaveCount(0);
  await expect(page.getByText('How can I help?')).toBeVisible();
  await expect(composer(page)).toBeFocused();
  await send(page, 'A fresh start');
  await expect(assistantMessages(page).last()).toContainText('You said: A fresh start');
  expect(conversationIdFromUrl(page)).not.toBe(deleted);
});

test('a message’s edit cancelled from the keyboard gives the focus back to its Edit button', async ({
  page,
}) => {
  await signIn(page, VAL);
  await page.goto('/');
  await send(page, 'Edit by keys');
  await expect(assistantMessages(page).last()).toContainText('You said: Edit by keys');
  await expect(stopButton(page)).toHaveCount(0);
  const edit = page.locator('[data-role="user"]').getByRole('button', { name: 'Edit', exact: true });
  const box = page.getByRole('textbox', { name: 'Edit message' });
  await edit.focus();
  await page.keyboard.press('Enter');
  await expect(box).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(box).toHaveCount(0);
  await expect(edit).toBeFocused();
  // The same with its Cancel button.
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Cancel', exact: true }).press('Enter');
  await expect(box).toHaveCount(0);
  await expect(edit).toBeFocused();
});

test('a message’s versions switched from the keyboard: the switcher of the version shown keeps the focus', async ({
  page,
}) => {
  await signIn(page, VAL);
  await page.goto('/');
  await send(page, 'Versions by keys');
  await expect(assistantMessages(page).last()).toContainText('You said: Versions by keys');
  await expect(stopButton(page)).toHaveCount(0);
  await page.locator('[data-role="user"]').getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('textbox', { name: 'Edit message' }).fill('Versions by keys, edited');
  await page.getByRole('button', { name: 'Save and send' }).click();
  await expect(assistantMessages(page).last()).toContainText('You said: Versions by keys, edited');
  await expect(stopButton(page)).toHaveCount(0);
  const counter = page.locator('[data-role="user"] [data-version-counter]');
  await expect(counter).toHaveText('2 / 2');
  // Previous: the first version is shown, and its switcher's only way on (Next) has the focus.
  await page.getByRole('button', { name: 'Previous version' }).focus();
  await page.keyboard.press('Enter');
  await expect(counter).toHaveText('1 / 2');
  await expect(userTexts(page)).toHaveText(['Versions by keys']);
  await expect(page.getByRole('button', { name: 'Next version' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(counter).toHaveText('2 / 2');
  await expect(page.getByRole('button', { name: 'Previous version' })).toBeFocused();
});

test('typing straight after "New chat" (shortcut, link, /new) goes into the new chat, none of it into the conversation left', async ({
  page,
}) => {
  await signIn(page, TAD);
  const drafts = () =>
    page.evaluate(() =>
      Object.fromEntries(Object.entries(sessionStorage).filter(([k]) => k.startsWith('mcp-chat:draft:'))),
    );
  const ways: Record<string, () => Promise<void>> = {
    shortcut: () => page.keyboard.press('Control+Shift+O'),
    link: () => page.getByRole('link', { name: 'New chat' }).click(),
    command: async () => {
      await page.keyboard.type('/new');
      await page.keyboard.press('Enter');
    },
  };
  for (const [way, start] of Object.entries(ways)) {
    await page.goto('/');
    await send(page, `Ahead by ${way}`);
    await expect(assistantMessages(page).last()).toContainText(`You said: Ahead by ${way}`);
    await expect(page).not.toHaveURL(/\/$/);
    await page.evaluate(() => sessionStorage.clear());
    await composer(page).click();
    await start();
    // Straight away, as the new chat is asked for: its box appears ~100 ms later.
    const typed = `typed ahead by ${way}`;
    await page.keyboard.type(typed);
    await expect(page).toHaveURL(/\/$/);
    await expect.soft(composer(page), way).toHaveValue(typed);
    await expect.soft(composer(page), way).toBeFocused();
    await expect(userTexts(page)).toHaveCount(0);
    // Nothing went to the conversation left (kept as its draft there).
    expect.soft(await drafts(), way).toEqual({ 'mcp-chat:draft:new': typed });
    // The next way starts on a new chat without this draft (restored as the page hydrates, it would meet
    // the next question being typed).
    await page.evaluate(() => sessionStorage.clear());
  }
});

test('typing after "New chat" while the new chat never comes goes back into the box it was typed after', async ({
  page,
}) => {
  await signIn(page, TAD);
  await page.goto('/');
  await send(page, 'Ahead of a hang');
  await expect(assistantMessages(page).last()).toContainText('You said: Ahead of a hang');
  // The new chat's page never arrives (a server that hangs).
  await page.route(
    (url) => url.pathname === '/',
    () => {},
  );
  await composer(page).click();
  await page.keyboard.press('Control+Shift+O');
  await page.keyboard.type('typed into the void');
  await expect(composer(page)).toHaveValue('typed into the void');
  await expect(composer(page)).toBeFocused();
  await expect(userTexts(page)).toHaveText(['Ahead of a hang']);
});

test('on a phone, the conversations drawer: out of the tab order closed; opens onto its first link; Escape or leaving it closes it', async ({
  page,
}) => {
  await signIn(page, PIP);
  await page.goto('/');
  // Hydrated (the footer's button works then), then phone-wide.
  await expect(page.getByRole('button', { name: 'Shortcuts' })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 667 });
  const drawer = nav(page);
  const menu = page.getByRole('button', { name: 'Open menu' });
  const newChat = drawer.getByRole('link', { name: 'New chat' });
  await expect(drawer).not.toBeInViewport();
  // Closed, Tab goes from the menu button to the page, not into the drawer's hidden links.
  await menu.focus();
  await page.keyboard.press('Tab');
  await expect(drawer.locator(':focus')).toHaveCount(0);

  await menu.click();
  await expect(newChat).toBeFocused();
  await expect(drawer).toBeInViewport();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(drawer).not.toBeInViewport();
  await expect(menu).toBeFocused();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  // Opened by keyboard, Shift+Tab out of it (to the menu button) closes it.
  await page.keyboard.press('Enter');
  await expect(newChat).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(menu).toBeFocused();
  await expect(drawer).not.toBeInViewport();

  // Ctrl+K opens it onto the search box.
  await page.keyboard.press('Control+k');
  await expect(drawer.getByRole('searchbox', { name: 'Search conversations' })).toBeFocused();
  await expect(drawer).toBeInViewport();
});
