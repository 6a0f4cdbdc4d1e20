// Accounts changed while their owners are busy: two admins demoting each other at once, and a user disabled
// while an answer streams in their tab. (One admin alone: 41-account.spec.ts; the admin's user page:
// 05-admin-users-providers.spec.ts.)
import { request as httpRequest } from 'node:http';
import { type BrowserContext, expect, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { adminContext, formSession, userId } from './account-helpers';
import {
  type Account,
  assistantMessages,
  conversationIdFromUrl,
  ensureUser,
  originHeaders,
  send,
  specUser,
} from './helpers';

const h = originHeaders();

/** The admin creates `who` as an admin (idempotent). */
async function ensureAdmin(admin: BrowserContext, who: Account): Promise<void> {
  const res = await admin.request.post('/api/admin/users', { data: { ...who, role: 'admin' }, headers: h });
  expect([201, 409]).toContain(res.status());
}

/**
 * A PATCH whose headers go now and whose body only when `finish` is called: a request the server has let in
 * (its sender was an admin then) but not yet carried out, as from a slow connection.
 */
function slowPatch(ctx: BrowserContext, path: string, body: unknown) {
  const payload = JSON.stringify(body);
  let finish = () => {};
  const answered = ctx.cookies(APP_URL).then(
    (cookies) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          `${APP_URL}${path}`,
          {
            method: 'PATCH',
            headers: {
              ...h,
              cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '),
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(payload),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.write(payload.slice(0, 1));
        finish = () => req.end(payload.slice(1));
      }),
  );
  return { answered, finish: () => finish() };
}

test('two admins demoting each other at once: one change is made, the other is refused, and an admin remains', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const ann = specUser('s60', 'Ann Admin');
  const ben = specUser('s60', 'Ben Admin');
  await ensureAdmin(admin, ann);
  await ensureAdmin(admin, ben);
  const [annId, benId] = [await userId(admin, ann.email), await userId(admin, ben.email)];
  const annCtx = await formSession(browser, ann);
  const benCtx = await formSession(browser, ben);

  // Ben's demotion of Ann is on its way (he is an admin as it arrives) while Ann demotes Ben.
  const bens = slowPatch(benCtx, `/api/admin/users/${annId}`, { role: 'user' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const anns = await annCtx.request.patch(`/api/admin/users/${benId}`, {
    data: { role: 'user' },
    headers: h,
  });
  expect(anns.status()).toBe(200);
  bens.finish();
  const late = await bens.answered;
  expect(late.status, late.body).toBe(403);
  expect(JSON.parse(late.body).error.message).toBe('Admins only.');

  const roles = (await (await annCtx.request.get('/api/admin/users')).json()).items as Array<{
    email: string;
    role: string;
  }>;
  expect(roles.find((u) => u.email === ann.email)?.role, 'Ann is still an admin').toBe('admin');
  expect(roles.find((u) => u.email === ben.email)?.role).toBe('user');
  await Promise.all([admin.close(), annCtx.close(), benCtx.close()]);
});

test('a user disabled while an answer streams: the answer stops at once in their tab and is stored interrupted', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const dora = specUser('s60', 'Dora Disabled');
  await ensureUser(admin.request, dora);
  const doraId = await userId(admin, dora.email);
  const ctx = await formSession(browser, dora);
  const page = await ctx.newPage();
  await page.goto('/');
  // 300 words, one every 50 ms: 15 s when nothing stops it.
  await send(page, 's60 long [[words:300]] [[slow:50]]');
  const answer = assistantMessages(page).last();
  await expect(answer).toContainText('word5');
  const id = conversationIdFromUrl(page);

  const disabled = await admin.request.patch(`/api/admin/users/${doraId}`, {
    data: { disabled: true },
    headers: h,
  });
  expect(disabled.status()).toBe(200);
  // The admin's answer comes once the answer is stored: the tab shows it ended, well before its last word.
  await expect(answer.locator('[data-interrupted]')).toBeVisible({ timeout: 3_000 });
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  expect(await answer.textContent()).not.toContain('word300');

  // Enabled again, Dora finds the answer as it was cut, marked interrupted.
  expect(
    (
      await admin.request.patch(`/api/admin/users/${doraId}`, { data: { disabled: false }, headers: h })
    ).status(),
  ).toBe(200);
  const again = await formSession(browser, dora);
  const stored = (await (await again.request.get(`/api/conversations/${id}`)).json()) as {
    messages: Array<{ role: string; metadata?: { interrupted?: boolean }; parts: Array<{ text?: string }> }>;
  };
  const last = stored.messages.at(-1);
  expect(last?.role).toBe('assistant');
  expect(last?.metadata?.interrupted).toBe(true);
  expect(last?.parts.map((p) => p.text ?? '').join('')).not.toContain('word300');
  await Promise.all([admin.close(), ctx.close(), again.close()]);
});
