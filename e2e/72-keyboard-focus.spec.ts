import { expect, test } from '@playwright/test';
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
import { nav } from './history-helpers';

// The keyboard after an action in the sidebar or on a message: the focus stays where the user works (never
// dropped to the page's start), and the sidebar's phone drawer opens, closes and leaves by keyboard.

const DEE = specUser('s72', 'Dee Delete');

test.beforeAll(({ browser }) => ensureUsers(browser, DEE));

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
