// Accounts changed while their owners are busy: two admins demoting each other at once. (One admin alone: 41-account.spec.ts; the admin's user page:
// 05-admin-users-providers.spec.ts.)
import { request as httpRequest } from 'node:http';
import { type BrowserContext, expect, test } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { adminContext, formSession, userId } from './account-helpers';
import { type Account, originHeaders, specUser } from './helpers';

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
