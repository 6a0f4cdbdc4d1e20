import { expect, test } from '@playwright/test';
import {
  ADMIN,
  assistantMessages,
  composer,
  conversationIdFromUrl,
  send,
  signIn,
  userTexts,
} from './helpers';

test.beforeEach(async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/');
});

test('a message streams its answer token by token (never gzipped), and a reload shows the same conversation', async ({
  page,
}) => {
  const box = composer(page);
  await expect(box).toBeFocused();
  await box.fill('first line');
  await box.press('Shift+Enter');
  await box.pressSequentially('second line');
  await expect(box).toHaveValue('first line\nsecond line');
  await box.fill('Tell me about streaming [[words:40]] [[slow:40]]');
  const chatResponse = page.waitForResponse((r) => r.url().endsWith('/api/chat'));
  await box.press('Enter');
  // The browser accepts gzip, but a compressed token stream would pay a zlib flush for every token.
  const streamed = await chatResponse;
  expect(streamed.headers()['content-type']).toBe('text/event-stream');
  expect(streamed.headers()['content-encoding']).toBeUndefined();

  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('word1 word2');
  // Still streaming: the last word has not arrived yet, and Stop is offered.
  await expect(answer).not.toContainText('word40');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect(answer).toContainText('word40');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(page).toHaveURL(/\/c\//);
  const id = conversationIdFromUrl(page);

  const link = page.getByRole('link', { name: 'Tell me about streaming' });
  await expect(link).toHaveAttribute('href', `/c/${id}`);

  await page.reload();
  await expect(userTexts(page)).toHaveText(['Tell me about streaming [[words:40]] [[slow:40]]']);
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(assistantMessages(page).first()).toContainText('word40');

  const stored = await (await page.request.get(`/api/conversations/${id}`)).json();
  const usage = stored.messages[1].metadata.usage;
  expect(usage.totalTokens).toBeGreaterThan(0);

  // Continuing the conversation sends the history to the model.
  await send(page, 'And again');
  await expect(assistantMessages(page).last()).toContainText('You said: And again');
  await expect(assistantMessages(page)).toHaveCount(2);
});

test('Stop ends the stream, keeps the partial answer and marks it interrupted, also after a reload', async ({
  page,
}) => {
  await send(page, 'A long one [[words:2000]] [[slow:25]]');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('word5');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(answer.locator('[data-interrupted]')).toBeVisible();
  const shown = ((await answer.locator('.prose-chat').textContent()) ?? '').trim();
  expect(shown).not.toContain('word2000');

  const id = conversationIdFromUrl(page);
  await expect
    .poll(async () => (await (await page.request.get(`/api/conversations/${id}`)).json()).messages.length)
    .toBe(2);
  await page.reload();
  const stored = assistantMessages(page).last();
  await expect(stored.locator('[data-interrupted]')).toBeVisible();
  await expect(stored).toContainText('word5');
  await expect(stored).not.toContainText('word2000');
});

test('a provider error shows in the conversation with Retry, and Retry works', async ({ page }) => {
  await send(page, 'Flaky provider [[status:500]] [[once]]');
  const alert = page.locator('[data-chat-error]');
  await expect(alert).toContainText('HTTP 500');
  await expect(userTexts(page)).toHaveText(['Flaky provider [[status:500]] [[once]]']);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(assistantMessages(page).last()).toContainText('You said: Flaky provider');
  await expect(page.locator('[data-chat-error]')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('[data-role="user"]')).toHaveCount(1);
  await expect(assistantMessages(page)).toHaveCount(1);
});

test('401, 429 and a mid-stream cut each give a clear error; the error survives a reload', async ({
  page,
}) => {
  await send(page, 'Bad key [[status:401]]');
  await expect(page.locator('[data-chat-error]')).toContainText('API key');
  await page.goto('/');
  await send(page, 'Busy [[status:429]]');
  await expect(page.locator('[data-chat-error]')).toContainText('429');
  await page.goto('/');
  await send(page, 'Cut me off [[words:50]] [[cut:5]] [[slow:20]]');
  await expect(page.locator('[data-chat-error]')).toContainText(/connection|failed/i);
  await expect(assistantMessages(page).last()).toContainText('word1');
  const id = conversationIdFromUrl(page);
  await expect
    .poll(async () => (await (await page.request.get(`/api/conversations/${id}`)).json()).messages.length)
    .toBe(2);
  await page.reload();
  await expect(page.locator('[data-chat-error]')).toBeVisible();
  await expect(page.locator('[data-chat-error]').getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('rename and delete a conversation from the sidebar', async ({ page }) => {
  await send(page, 'Rename me please');
  await expect(assistantMessages(page).last()).toContainText('You said');
  const id = conversationIdFromUrl(page);
  await page.getByRole('button', { name: 'Rename Rename me please' }).click();
  const input = page.getByRole('textbox', { name: 'Conversation title' });
  await input.fill('Renamed chat');
  await input.press('Enter');
  await expect(page.getByRole('link', { name: 'Renamed chat' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('link', { name: 'Renamed chat' })).toBeVisible();
  // The list's date headings appear once the page has hydrated: a click before that does nothing.
  await expect(page.getByRole('navigation').getByRole('heading', { name: 'Today' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete Renamed chat' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete conversation?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('link', { name: 'Renamed chat' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete Renamed chat' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('link', { name: 'Renamed chat' })).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.get(`/api/conversations/${id}`)).status()).toBe(404);
});

test('"New chat" starts an empty conversation; the layout works on a phone', async ({ page }) => {
  await send(page, 'Phone check');
  await expect(assistantMessages(page).last()).toContainText('You said');
  await page.getByRole('link', { name: 'New chat' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('How can I help?')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(composer(page)).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Conversations' });
  await expect(nav).not.toBeInViewport();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(nav).toBeInViewport();
  await nav.getByRole('link', { name: 'Phone check' }).first().click();
  await expect(page).toHaveURL(/\/c\//);
  await expect(nav).not.toBeInViewport();
});

test('Back or Forward to a conversation begun as a new chat shows it, also mid-answer, and it goes on', async ({
  page,
}) => {
  // Its first message moved the URL with history.replaceState; that history entry once brought back the
  // empty new chat under the conversation's URL.
  await send(page, 'Back and forth [[words:5]]');
  await expect(assistantMessages(page).last()).toContainText('word5');
  const first = conversationIdFromUrl(page);
  await page.getByRole('link', { name: 'New chat' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(userTexts(page)).toHaveCount(0);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/c/${first}$`));
  await expect(userTexts(page)).toHaveText(['Back and forth [[words:5]]']);
  await expect(assistantMessages(page).last()).toContainText('word5');

  // Mid-answer: away to the other conversation, then Back while the answer is still written.
  await page.getByRole('link', { name: 'New chat' }).click();
  await expect(userTexts(page)).toHaveCount(0);
  await send(page, 'Away mid-answer [[words:150]] [[slow:20]]');
  await expect(assistantMessages(page).last()).toContainText('word2');
  const second = conversationIdFromUrl(page);
  await page.getByRole('link', { name: 'Back and forth [[words:5]]' }).click();
  await expect(page).toHaveURL(new RegExp(`/c/${first}$`));
  await expect(userTexts(page)).toHaveText(['Back and forth [[words:5]]']);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/c/${second}$`));
  await expect(userTexts(page)).toHaveText(['Away mid-answer [[words:150]] [[slow:20]]']);
  await expect(assistantMessages(page).last()).toContainText('word150', { timeout: 20_000 });
  await send(page, 'Still here');
  await expect(assistantMessages(page).last()).toContainText('You said: Still here');
  await expect(assistantMessages(page)).toHaveCount(2);
  await page.goForward();
  await expect(page).toHaveURL(new RegExp(`/c/${first}$`));
  await expect(userTexts(page)).toHaveText(['Back and forth [[words:5]]']);
});

test('a conversation deleted in another tab while it answers: a regenerate or a message sent there says so and brings nothing back', async ({
  page,
  context,
}) => {
  // Its own title (a retry of this test finds the conversation of the try before in the list).
  const title = `Deleted elsewhere ${Date.now()} [[words:200]] [[slow:20]]`;
  await send(page, title);
  await expect(assistantMessages(page).last()).toContainText('word2');
  const id = conversationIdFromUrl(page);
  const other = await context.newPage();
  await other.goto(`/c/${id}`);
  // The list's date headings appear once the page has hydrated: a click before that does nothing.
  await expect(other.getByRole('navigation').getByRole('heading', { name: 'Today' })).toBeVisible();
  await other.getByRole('button', { name: `Delete ${title}` }).click();
  await other
    .getByRole('dialog', { name: 'Delete conversation?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(other).toHaveURL(/\/$/);
  await other.close();
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();

  // Regenerate resends the first message, as a new chat's would be: it does not start the conversation again.
  const answer = assistantMessages(page).last();
  await answer.hover();
  await answer.getByRole('button', { name: 'Regenerate' }).click();
  await expect(page.locator('[data-chat-error]')).toContainText('Conversation not found.');
  expect((await page.request.get(`/api/conversations/${id}`)).status()).toBe(404);

  await send(page, 'Anyone there?');
  await expect(page.locator('[data-chat-error]')).toContainText('Conversation not found.');
  // The refused message made no empty conversation under the deleted one's id.
  expect((await page.request.get(`/api/conversations/${id}`)).status()).toBe(404);
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Anyone there?' })).toHaveCount(0);
});

test('a first message that never reached the server keeps the new chat: a reload brings its text back to send', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  await send(page, 'Foxtrot sent offline');
  await expect(page.locator('[data-chat-error]')).toBeVisible();
  // Nothing was stored: the page is still the new chat's, not a conversation's that does not exist.
  expect(new URL(page.url()).pathname).toBe('/');

  await context.setOffline(false);
  await page.reload();
  await expect(composer(page)).toHaveValue('Foxtrot sent offline');
  await composer(page).press('Enter');
  await expect(assistantMessages(page).last()).toContainText('You said: Foxtrot sent offline');
  await expect(page).toHaveURL(/\/c\//);
  await page.reload();
  await expect(userTexts(page)).toHaveText(['Foxtrot sent offline']);
});

test('in a conversation, a message or an edit over the length limit is held with the reason; one that never reached the server is the draft after a reload', async ({
  page,
  context,
}) => {
  await send(page, 'Golf first message');
  await expect(assistantMessages(page).last()).toContainText('You said: Golf first message');
  await expect(page).toHaveURL(/\/c\//);

  // 100,000 characters is the limit (the server refuses more): the box says so and does not send.
  const long = `${'golf '.repeat(20_001)}`;
  await composer(page).fill(long);
  await expect(page.getByRole('alert').filter({ hasText: 'the limit is 100,000' })).toContainText(
    'This message has 100,004 characters',
  );
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await composer(page).press('Enter');
  await expect(userTexts(page)).toHaveText(['Golf first message']);
  await expect(composer(page)).toHaveValue(long);
  await composer(page).fill('Golf sent offline');
  await expect(page.getByRole('alert').filter({ hasText: 'the limit' })).toHaveCount(0);
  // The same in an edit.
  const first = page.locator('[data-role="user"]').first();
  await first.hover();
  await first.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'Edit message' }).fill(long);
  await expect(page.getByRole('alert').filter({ hasText: 'the limit is 100,000' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save and send' })).toBeDisabled();
  await page.getByRole('button', { name: 'Cancel' }).click();

  await context.setOffline(true);
  await composer(page).press('Enter');
  await expect(page.locator('[data-chat-error]')).toBeVisible();
  await context.setOffline(false);
  await page.reload();
  await expect(userTexts(page)).toHaveText(['Golf first message']);
  await expect(composer(page)).toHaveValue('Golf sent offline');
  await composer(page).press('Enter');
  await expect(assistantMessages(page).last()).toContainText('You said: Golf sent offline');
});
