import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN, assistantMessages, ensureUser, send, signIn, specUser } from './helpers';

const MERMAID_USER = specUser('s43', 'Mira User');

let admin: BrowserContext;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await signIn(admin, ADMIN);
  await ensureUser(admin.request, MERMAID_USER);
});

test.afterAll(async () => {
  await admin.close();
});

/** Console messages that mean a CSP block or a script error, and page errors. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to|Minified React error/i.test(msg.text()))
      problems.push(msg.text());
  });
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return { problems, dialogs };
}

/**
 * Elements carrying an inline event handler (an `on…` attribute) that were ever part of the live page, even
 * for a moment. Sanitizers (DOMPurify, in Mermaid) parse hostile labels in inert documents, where nothing
 * runs; Chromium 156 still logs a CSP block for each handler parsed there, so the CSP messages cannot tell
 * the two apart. This watches the page's own DOM instead. Call before the page loads.
 */
async function watchLiveHandlers(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { liveHandlers: string[] }).liveHandlers = seen;
    const check = (el: Element) => {
      for (const name of el.getAttributeNames())
        if (/^on/i.test(name)) seen.push(`<${el.tagName.toLowerCase()} ${name}>`);
    };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'attributes' && r.target instanceof Element) check(r.target);
        for (const node of r.addedNodes)
          if (node instanceof Element) for (const el of [node, ...node.querySelectorAll('*')]) check(el);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { liveHandlers: string[] }).liveHandlers);
}
const INERT_PARSE = /^Executing inline event handler violates/;

const fence = (source: string) => ['```mermaid', source, '```'].join('\n');

/** The diagram's iframe in a message: sandboxed with no permissions at all. */
function diagramFrame(message: Locator) {
  return message.locator('iframe[title="Diagram"]');
}

test.beforeEach(async ({ page }) => {
  await signIn(page, MERMAID_USER);
  await page.goto('/');
});

test('a Mermaid diagram is drawn as an SVG inside a sandboxed iframe', async ({ page }) => {
  const { problems } = watch(page);
  await send(
    page,
    `[[say:Here it is:\n${fence('graph TD\n  A[Start here] --> B[All done]')}\nThat is all.]]`,
  );
  const message = assistantMessages(page).last();
  const frame = diagramFrame(message);
  await expect(frame).toHaveCount(1);
  // An opaque origin with no scripts: the sandbox attribute is present and grants nothing.
  await expect(frame).toHaveAttribute('sandbox', '');
  const svg = frame.contentFrame().locator('svg');
  await expect(svg).toBeVisible();
  await expect(frame.contentFrame().locator('svg')).toContainText('Start here');
  await expect(frame.contentFrame().locator('svg')).toContainText('All done');
  await expect(message.locator('.code-block-bar')).toContainText('mermaid');
  await expect(message).toContainText('That is all.');
  // The page itself holds no diagram SVG (it is only inside the frame).
  await expect(message.locator('svg[id^="mcp-chat-mermaid"]')).toHaveCount(0);
  // The iframe's document cannot be reached from the page (opaque origin).
  expect(
    await frame.evaluate((el) => {
      try {
        return (el as HTMLIFrameElement).contentDocument === null;
      } catch {
        return true;
      }
    }),
  ).toBe(true);
  expect(problems).toEqual([]);

  // A reload (server-rendered history) draws it again.
  await page.reload();
  const again = diagramFrame(assistantMessages(page).last());
  await expect(again.contentFrame().locator('svg')).toContainText('Start here');
  expect(problems).toEqual([]);
});

test('a hostile diagram cannot run script in the page', async ({ page }) => {
  const liveHandlers = await watchLiveHandlers(page);
  await page.reload();
  const { problems, dialogs } = watch(page);
  const source = [
    'graph TD',
    '  A["<img src=x onerror=alert(1)>"] --> B["<script>alert(2)</script> B"]',
    '  B --> C["<a href=\'javascript:alert(3)\'>link</a>"]',
    '  click A callback "Tooltip"',
    '  click B "javascript:alert(4)"',
    '  click C call alert(5)',
  ].join('\n');
  await send(page, `[[say:${fence(source)}\nEnd.]]`);
  const message = assistantMessages(page).last();
  await expect(message).toContainText('End.');
  const frame = diagramFrame(message);
  await expect(frame).toHaveAttribute('sandbox', '');
  const inner = frame.contentFrame();
  await expect(inner.locator('svg')).toBeVisible();
  // Nothing the diagram carried became live markup: no script, no event handler, no javascript: link.
  await expect(inner.locator('script')).toHaveCount(0);
  await expect(inner.locator('[onerror], [onclick], [onload]')).toHaveCount(0);
  await expect(inner.locator('[href^="javascript:" i]')).toHaveCount(0);
  // Clicking every node does nothing in the page either.
  const nodes = inner.locator('g.node');
  const n = await nodes.count();
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) await nodes.nth(i).click({ force: true });
  // The page gained no element from the diagram outside the iframe.
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(await page.evaluate(() => document.querySelectorAll('svg g.node').length)).toBe(0);
  // One more round trip through the page, so a queued alert would have shown by now.
  await send(page, '[[say:still here]]');
  await expect(assistantMessages(page).last()).toContainText('still here');
  expect(dialogs).toEqual([]);
  expect(await liveHandlers()).toEqual([]);
  expect(problems.filter((p) => !INERT_PARSE.test(p))).toEqual([]);
});

test('a diagram Mermaid cannot read shows its source and the error', async ({ page }) => {
  const { problems } = watch(page);
  const source = 'graph TD\n  A --> B --> ((\n  this is not mermaid';
  await send(page, `[[say:Broken:\n${fence(source)}]]`);
  const message = assistantMessages(page).last();
  const note = message.getByRole('note');
  await expect(note).toContainText('This diagram could not be drawn');
  await expect(message.locator('pre code')).toHaveText(source);
  await expect(diagramFrame(message)).toHaveCount(0);
  // The error is Mermaid's own (it says where it stopped), shown as text.
  await expect(note).toContainText(/line|Parse|Expecting|error/i);
  // Its copy button copies the source as written.
  await expect(message.getByRole('button', { name: 'Copy code', exact: true })).toBeVisible();
  expect(problems).toEqual([]);
});

// After a long first paragraph the fence is in a later piece of the answer (markdown-blocks.ts), which
// counts its lines from its own start.
for (const [label, before] of [
  ['', ''],
  [' (after 2,500 characters)', `${'x'.repeat(2_500)}\n\n`],
] as const)
  test(`a Mermaid fence still streaming in shows its code, then the diagram once it closes${label}`, async ({
    page,
  }) => {
    const { problems } = watch(page);
    const answer = `${before}Drawing:\n${fence('graph LR\n  Xray --> Yankee\n  Yankee --> Zulu')}\nfinished now`;
    await send(page, `[[slow:700]][[say:${answer}]]`);
    const message = assistantMessages(page).last();
    // Mid-stream: the source so far as code, labelled mermaid, no diagram yet and no error; not even an
    // attempt at one (a fence taken for closed is drawn, "Drawing…", at each word).
    await expect(message.locator('pre code')).toContainText('Xray');
    await expect(message.locator('.code-block-bar')).toContainText('mermaid');
    await expect(message.locator('pre code')).toContainText('Yankee');
    await expect(message.locator('.code-block-note')).toHaveCount(0);
    await expect(diagramFrame(message)).toHaveCount(0);
    // Once the fence is closed: the diagram.
    await expect(message).toContainText('finished now', { timeout: 30_000 });
    await expect(diagramFrame(message).contentFrame().locator('svg')).toContainText('Zulu');
    await expect(message.getByRole('note')).toHaveCount(0);
    expect(problems).toEqual([]);
  });
