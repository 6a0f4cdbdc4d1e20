import { expect, type Page, test } from '@playwright/test';
import { assistantMessages, composer, ensureUsers, inputMethod, send, signIn, specUser } from './helpers';
import { nav, searchBox } from './history-helpers';

// Typing Chinese or Japanese with an input method (Chromium's own IME path, e2e/helpers.ts inputMethod): the
// keys that work its candidates (Enter picks one, Escape closes them, arrows move among them) are not the
// app's. The composer, a message's edit and a dialog's field in a Chinese browser are the last test.

const MEI = specUser('s63', 'Mei User');

test.beforeAll(({ browser }) => ensureUsers(browser, MEI));

test.beforeEach(async ({ page }) => {
  await signIn(page, MEI);
  await page.goto('/');
  // The shortcuts button works once the page has hydrated; before that a key does nothing.
  await expect(page.getByRole('button', { name: 'Shortcuts' })).toBeVisible();
});

const stopButton = (page: Page) => page.getByRole('button', { name: 'Stop', exact: true });

test('a prompt’s argument: the arrow and Enter that pick a candidate do not pick the server’s suggestion', async ({
  page,
}) => {
  await composer(page).fill('/');
  await page
    .getByRole('listbox', { name: 'Commands' })
    .getByRole('option', { name: /^\/tests:greeting/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Arguments for tests:greeting' });
  const name = dialog.getByRole('combobox', { name: /^name/ });
  await expect(name).toBeFocused();
  const ime = await inputMethod(page);
  // Pinyin "a" is in the field while it is composed: the server suggests what starts with it.
  await ime.compose('a');
  await expect(dialog.getByRole('option', { name: 'Alan' })).toBeVisible();
  // ArrowDown moves among the input method's candidates and Enter picks 阿兰, not the server's "Ada".
  await ime.key('ArrowDown');
  await ime.key('Enter');
  await ime.commit('阿兰');
  await expect(name).toHaveValue('阿兰');
  // The server has nothing starting with 阿兰: the suggestions close.
  await expect(dialog.getByRole('listbox', { name: 'Suggestions for name' })).toBeHidden();
  await dialog.getByRole('button', { name: 'Insert' }).click();
  await expect(dialog).toBeHidden();
  await expect(composer(page)).toHaveValue('Say hello to 阿兰');
});

test('Safari’s order: the Enter that picked a candidate comes after the composition ended, and does not send', async ({
  page,
}) => {
  const box = composer(page);
  await box.click();
  const ime = await inputMethod(page);
  await ime.compose('nihao');
  await ime.commit('你好');
  // Safari delivers the candidate's Enter after compositionend: not composing any more, but keyCode 229.
  await ime.key('Enter');
  await expect(box).toHaveValue('你好');
  await expect(page.locator('[data-role="user"]')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-role="user"] [data-message-text]')).toHaveText(['你好']);
});

test('the sidebar: Escape that closes the candidates neither cancels a rename nor clears the search', async ({
  page,
}) => {
  await send(page, 'Rename me in Chinese');
  await expect(assistantMessages(page).last()).toContainText('You said');
  await nav(page).getByRole('button', { name: 'Rename Rename me in Chinese' }).click();
  const title = nav(page).getByRole('textbox', { name: 'Conversation title' });
  await title.fill('');
  const ime = await inputMethod(page);
  await ime.compose('zhongwen');
  await ime.key('Escape');
  await ime.commit('中文');
  await expect(title).toHaveValue('中文');
  await title.press('Enter');
  await expect(nav(page).getByRole('link', { name: '中文' })).toBeVisible();

  const search = searchBox(page);
  await search.fill('中');
  await ime.compose('wen');
  await ime.key('Escape');
  await ime.commit('文');
  await expect(search).toHaveValue('中文');
  // Escape without a composition clears it.
  await search.press('Escape');
  await expect(search).toHaveValue('');
});

test('a streaming answer: Escape that closes the candidates in the composer does not stop it', async ({
  page,
}) => {
  await send(page, 'Keep going [[words:200]] [[slow:25]]');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('word5');
  const box = composer(page);
  await box.focus();
  const ime = await inputMethod(page);
  await ime.compose('ni');
  await ime.key('Escape');
  await ime.commit('你');
  await expect(box).toHaveValue('你');
  await expect(answer).toContainText('word200');
  await expect(stopButton(page)).toHaveCount(0);
  await expect(answer.locator('[data-interrupted]')).toHaveCount(0);
});

test('the Tools popover: Escape that closes the candidates in a limit keeps it open', async ({ page }) => {
  const settings = page.getByRole('dialog', { name: 'Tool settings' });
  await page.getByRole('button', { name: /^Tools · / }).click();
  await expect(settings).toBeVisible();
  const steps = settings.getByRole('spinbutton', { name: 'Max steps' });
  await steps.click();
  const ime = await inputMethod(page);
  // A Japanese input method types full-width digits; Escape closes its candidates.
  await ime.compose('３');
  await ime.key('Escape');
  await ime.commit('3');
  await expect(steps).toHaveValue('3');
  await expect(settings).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();
});

test('typing Chinese with an input method: Enter or Escape meant for its candidates neither sends nor cancels an edit', async ({
  browser,
}) => {
  const zh = await browser.newContext({ locale: 'zh-CN' });
  await signIn(zh, MEI);
  const page = await zh.newPage();
  await page.goto('/');
  const box = page.getByRole('textbox', { name: '消息' });
  // The list's date heading or the empty state appear once hydrated; before that a key does nothing.
  await expect(page.getByRole('button', { name: '快捷键' })).toBeVisible();
  await box.click();
  const ime = await inputMethod(page);
  await ime.compose('nihao');
  await ime.key('Enter');
  await ime.commit('你好');
  await expect(box).toHaveValue('你好');
  await expect(page.locator('[data-role="user"]')).toHaveCount(0);
  // The next Enter, with no candidate open, sends the message.
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-role="user"] [data-message-text]')).toHaveText(['你好']);
  await expect(assistantMessages(page).last()).toContainText('你好');

  // Editing it: Escape that closes the candidates keeps the edit open, with its text; Escape after cancels.
  await page.locator('[data-role="user"]').hover();
  await page.locator('[data-role="user"]').getByRole('button', { name: '编辑', exact: true }).click();
  const edit = page.getByRole('textbox', { name: '编辑消息' });
  await edit.press('End');
  await ime.compose('shijie');
  await ime.key('Escape');
  await ime.commit('世界');
  await expect(edit).toHaveValue('你好世界');
  await edit.press('Escape');
  await expect(edit).toHaveCount(0);

  // The same in a dialog's field: the conversation's instructions stay open with what was typed.
  await page.locator('header').getByRole('button', { name: '指令' }).click();
  const dialog = page.getByRole('dialog', { name: '对话指令' });
  await dialog.getByRole('textbox', { name: '指令' }).click();
  await ime.compose('shijie');
  await ime.key('Escape');
  await ime.commit('世界');
  await expect(dialog.getByRole('textbox', { name: '指令' })).toHaveValue('世界');
  await zh.close();
});
