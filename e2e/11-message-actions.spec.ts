import { expect, test } from '@playwright/test';
import { ADMIN, assistantMessages, conversationIdFromUrl, send, signIn, userTexts } from './helpers';

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/');
});

test('regenerate the last answer, and edit-and-resend a message (the path shows the edit; later messages stay in the old version)', async ({
  page,
}) => {
  await send(page, 'First question');
  await expect(assistantMessages(page).last()).toContainText('You said: First question');
  await send(page, 'Second question');
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(assistantMessages(page).last()).toContainText('You said: Second question');

  // Only the last answer offers Regenerate.
  await expect(assistantMessages(page).first().getByRole('button', { name: 'Regenerate' })).toHaveCount(0);
  await assistantMessages(page).last().hover();
  await assistantMessages(page).last().getByRole('button', { name: 'Regenerate' }).click();
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect(assistantMessages(page).last()).toContainText('You said: Second question');

  const first = page.locator('[data-role="user"]').first();
  await first.hover();
  await first.getByRole('button', { name: 'Edit' }).click();
  const box = page.getByRole('textbox', { name: 'Edit message' });
  await box.fill('Edited question');
  await page.getByRole('button', { name: 'Save and send' }).click();
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(assistantMessages(page).last()).toContainText('You said: Edited question');
  await expect(userTexts(page)).toHaveText(['Edited question']);

  const id = conversationIdFromUrl(page);
  await expect
    .poll(async () => (await (await page.request.get(`/api/conversations/${id}`)).json()).messages.length)
    .toBe(2);
  await page.reload();
  await expect(userTexts(page)).toHaveText(['Edited question']);
  await expect(assistantMessages(page)).toHaveCount(1);
});

test('copy puts the message text on the clipboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await send(page, '[[say:Copy **this** text]]');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('Copy this text');
  await answer.hover();
  await answer.getByRole('button', { name: 'Copy' }).click();
  await expect(answer.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Copy **this** text');
});
