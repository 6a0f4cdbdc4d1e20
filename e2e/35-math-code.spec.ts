import { expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN, assistantMessages, conversationIdFromUrl, send, signIn } from './helpers';

const PRICE = 'I paid $5 and $10 for it.';
const CODE = 'def area(r):\n    return 3.14 * r ** 2';

/** What the fake model answers: DeepSeek-style \[…\], a $$ block, inline $…$, a price sentence, code. */
const ANSWER = [
  'The square:',
  '\\[ x^2 \\]',
  'A fraction:',
  '$$ \\frac{a}{b} $$',
  'Famous: $E=mc^2$ indeed.',
  '',
  PRICE,
  '',
  '```python',
  CODE,
  '```',
].join('\n');

/** Two display formulas and one inline; the price sentence and the code have none. */
async function expectRendered(page: Page, message: Locator) {
  await expect(message.locator('.katex')).toHaveCount(3);
  await expect(message.locator('.katex-display')).toHaveCount(2);
  await expect(message.locator('.katex-error')).toHaveCount(0);
  const price = message.locator('p', { hasText: 'I paid' });
  await expect(price).toHaveText(PRICE);
  await expect(price.locator('.katex')).toHaveCount(0);
  // The formula's own text (MathML annotation) is what was written.
  await expect(message.locator('annotation').first()).toHaveText('x^2', { useInnerText: false });
  const block = message.locator('.code-block');
  await expect(block).toHaveCount(1);
  await expect(block.locator('.code-block-bar')).toContainText('python');
  await expect(block.locator('code .hljs-keyword').first()).toHaveText('def');
  // The page's fonts (KaTeX's included) load under the CSP.
  await page.evaluate(() => document.fonts.ready);
}

test.beforeEach(async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, ADMIN);
  await page.goto('/');
});

test('math renders with KaTeX, prices stay text, code blocks have a label and Copy code', async ({
  page,
}) => {
  const blocked: string[] = [];
  page.on('console', (msg) => {
    // A blocked font or style, or server HTML that React had to throw away (KaTeX output must hydrate).
    if (/Content Security Policy|hydrat|Minified React error #(418|423|425)/i.test(msg.text()))
      blocked.push(msg.text());
  });
  await send(page, `[[say:${ANSWER}]]`);
  const message = assistantMessages(page).last();
  await expectRendered(page, message);
  const copy = message.getByRole('button', { name: 'Copy code', exact: true });
  await copy.click();
  await expect(message.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
  await expect(message.getByRole('button', { name: 'Copy code', exact: true })).toBeVisible({
    timeout: 5000,
  });
  // KaTeX's fonts are served by us.
  const fonts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((n) => /KaTeX_.*\.woff2/.test(n)),
  );
  expect(fonts.length).toBeGreaterThan(0);
  for (const font of fonts) expect(new URL(font).origin).toBe(new URL(page.url()).origin);
  expect(blocked).toEqual([]);

  // A reload (server-rendered history) shows the same.
  await page.goto(`/c/${conversationIdFromUrl(page)}`);
  await expectRendered(page, assistantMessages(page).last());

  // A share link renders math and code the same way for anyone.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share conversation' });
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const link = dialog.getByRole('textbox', { name: 'Share link' });
  await expect(link).toHaveValue(/\/share\/[A-Za-z0-9_-]{32}$/);
  const url = await link.inputValue();
  const anon = await (await page.context().browser()?.newContext())?.newPage();
  if (!anon) throw new Error('no browser');
  await anon.goto(url);
  await expectRendered(anon, anon.locator('[data-role="assistant"]').last());
  await anon.context().close();
});

test('while a formula or a fence is still streaming in, the page shows text and never breaks', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await send(page, '[[say:Almost: $$ \\frac{1}{ and \\[ x^ then\n```js\nconst a = 1;]]');
  const message = assistantMessages(page).last();
  await expect(message).toContainText('\\frac{1}{');
  await expect(message.locator('.katex')).toHaveCount(0);
  await expect(message.locator('.code-block')).toContainText('const a = 1;');
  await expect(message.locator('.code-block-bar')).toContainText('js');
  expect(errors).toEqual([]);
});

/** Whether any stylesheet of the page has KaTeX's rules. */
const katexStyled = (page: Page) =>
  page.evaluate(() =>
    [...document.styleSheets].some((sheet) => {
      try {
        return [...sheet.cssRules].some((rule) => rule.cssText.startsWith('.katex'));
      } catch {
        return false;
      }
    }),
  );

test('KaTeX and its stylesheet load only once a message has math', async ({ page }) => {
  await send(page, '[[say:Just words, and `code`, no formula.]]');
  await expect(assistantMessages(page).last()).toContainText('no formula.');
  expect(await katexStyled(page)).toBe(false);
  await send(page, '[[say:Now one: $E=mc^2$ indeed.]]');
  await expect(assistantMessages(page).last().locator('.katex')).toHaveCount(1);
  expect(await katexStyled(page)).toBe(true);
  // A page opened on a conversation without math does not get it either.
  await page.goto('/');
  await send(page, '[[say:Words only.]]');
  await expect(assistantMessages(page).last()).toContainText('Words only.');
  await page.reload();
  await expect(assistantMessages(page).last()).toContainText('Words only.');
  expect(await katexStyled(page)).toBe(false);
});
