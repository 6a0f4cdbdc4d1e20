import { expect, type Page, test } from '@playwright/test';
import { NO_PROVIDER_URL } from '../playwright.config';
import { adminContext, formSession, signInStatus } from './account-helpers';
import {
  ADMIN,
  assistantMessages,
  composer,
  ensureUser,
  originHeaders,
  send,
  specUser,
  userTexts,
} from './helpers';

// Issue 18: the account page (/account): changing the password, signing out sessions and deleting the
// account. Accounts whose password changes sign in through the form, not the cached helper. The admin's
// password reset, the first-run checklist and the web manifest are in 49-account-admin.spec.ts.

const h = originHeaders();

const sessionsOf = (page: Page) => page.locator('[data-session]');

test('password change: a wrong current password is refused; the right one signs out the other session', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const paula = specUser('s41', 'Paula Password');
  await ensureUser(admin.request, paula);
  const here = await formSession(browser, paula);
  const other = await formSession(browser, paula);

  // The API: anonymous 401, foreign origin 403, bad input 400 naming the field.
  const anon = await browser.newContext();
  expect((await anon.request.post('/api/account/password', { data: {}, headers: h })).status()).toBe(401);
  await anon.close();
  const foreign = await here.request.post('/api/account/password', {
    data: { currentPassword: paula.password, newPassword: 'whatever-123' },
    headers: { origin: 'https://evil.test' },
  });
  expect(foreign.status()).toBe(403);
  const short = await here.request.post('/api/account/password', {
    data: { currentPassword: paula.password, newPassword: 'short' },
    headers: h,
  });
  expect(short.status()).toBe(400);
  expect((await short.json()).error.fields.newPassword).toBeTruthy();

  const page = await here.newPage();
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(sessionsOf(page)).toHaveCount(2);
  await expect(page.locator('[data-session="current"]')).toContainText('This device');

  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password').fill('paula-new-password-2');
  await page.getByRole('button', { name: 'Change password' }).click();
  // (Next's route announcer is an empty alert of its own.)
  await expect(page.getByRole('alert').filter({ hasText: 'The current password is wrong.' })).toBeVisible();
  expect((await other.request.get('/api/conversations')).status(), 'nothing changed').toBe(200);

  await page.getByLabel('Current password').fill(paula.password);
  await page.getByLabel('New password').fill('paula-new-password-2');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed. Your other sessions were signed out.')).toBeVisible();
  await expect(sessionsOf(page)).toHaveCount(1);

  // The other browser is signed out; this one goes on.
  const otherPage = await other.newPage();
  await otherPage.goto('/');
  await expect(otherPage).toHaveURL(/\/sign-in$/);
  expect((await here.request.get('/api/conversations')).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();

  expect(await signInStatus(browser, paula.email, paula.password)).toBe(401);
  expect(await signInStatus(browser, paula.email, 'paula-new-password-2')).toBe(200);
  await Promise.all([admin, here, other].map((c) => c.close()));
});

test('sessions: sign out one other session, then everywhere else; another user’s session is a 404', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const sam = specUser('s41', 'Sam Sessions');
  await ensureUser(admin.request, sam);
  const here = await formSession(browser, sam);
  const second = await formSession(browser, sam);
  const third = await formSession(browser, sam);
  const alive = async () =>
    (
      await Promise.all(
        [second, third].map(async (c) => (await c.request.get('/api/conversations')).status()),
      )
    ).filter((s) => s === 200).length;

  // Session lists never carry session tokens; someone else's session id is not found.
  const list = (await (await here.request.get('/api/account/sessions')).json()) as {
    items: Array<Record<string, unknown>>;
  };
  expect(list.items).toHaveLength(3);
  expect(list.items.filter((s) => s.current)).toHaveLength(1);
  for (const s of list.items)
    expect(Object.keys(s).sort()).toEqual(['createdAt', 'current', 'id', 'lastActive', 'userAgent'].sort());
  const adminSessions = (await (await admin.request.get('/api/account/sessions')).json()) as {
    items: Array<{ id: string }>;
  };
  const adminSession = adminSessions.items[0]?.id ?? 'none';
  expect((await here.request.delete(`/api/account/sessions/${adminSession}`, { headers: h })).status()).toBe(
    404,
  );
  expect((await admin.request.get('/api/admin/users')).status(), 'the admin is still signed in').toBe(200);
  // The auth library's own session list (with tokens) is not served.
  expect((await here.request.get('/api/auth/list-sessions')).status()).toBe(404);

  const page = await here.newPage();
  await page.goto('/account');
  await expect(sessionsOf(page)).toHaveCount(3);
  await page.locator('[data-session="other"]').first().getByRole('button', { name: 'Sign out' }).click();
  await expect(sessionsOf(page)).toHaveCount(2);
  expect(await alive()).toBe(1);

  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(sessionsOf(page)).toHaveCount(1);
  expect(await alive()).toBe(0);
  await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toHaveCount(0);
  expect((await here.request.get('/api/conversations')).status()).toBe(200);
  await Promise.all([admin, here, second, third].map((c) => c.close()));
});

test('sessions by keyboard: each Sign out names its session; signing one out moves the focus to the next, everywhere else to the heading', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const sid = specUser('s41', 'Sid Sessions');
  await ensureUser(admin.request, sid);
  const here = await formSession(browser, sid);
  // Only the sessions made here (an earlier run's may still be open).
  expect((await here.request.delete('/api/account/sessions', { headers: h })).status()).toBe(204);
  const others = [await formSession(browser, sid), await formSession(browser, sid)];
  const page = await here.newPage();
  await page.goto('/account');
  const sessions = page.locator('[data-session="other"]');
  await expect(sessions).toHaveCount(2);
  // Only the sidebar's own button is just "Sign out" (of this session); the list's name the session.
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toHaveCount(1);
  const buttons = sessions.getByRole('button', { name: /^Sign out .+, last active / });
  await expect(buttons).toHaveCount(2);
  await buttons.first().focus();
  await page.keyboard.press('Enter');
  await expect(sessions).toHaveCount(1);
  await expect(buttons.first()).toBeFocused();

  await page.getByRole('button', { name: 'Sign out everywhere else' }).focus();
  await page.keyboard.press('Enter');
  await expect(sessions).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeFocused();
  await Promise.all([admin, here, ...others].map((c) => c.close()));
});

test('delete account: typed confirmation; conversations and shares are gone and the account cannot sign in', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const dora = specUser('s41', 'Dora Delete');
  await ensureUser(admin.request, dora);
  const ctx = await formSession(browser, dora);
  const id = `s41-del-${Date.now().toString(36)}`;
  const chat = await ctx.request.post('/api/chat', {
    data: { id, message: { id: `${id}-u`, role: 'user', parts: [{ type: 'text', text: 'Remember me' }] } },
    headers: h,
  });
  expect(chat.status(), await chat.text()).toBe(200);
  await chat.body();
  const share = await ctx.request.post(`/api/conversations/${id}/share`, { data: {}, headers: h });
  expect(share.status()).toBe(201);
  const { token } = (await share.json()) as { token: string };
  expect((await ctx.request.get(`/share/${token}`)).status()).toBe(200);

  // The API wants the account's email, from our origin.
  const wrong = await ctx.request.delete('/api/account', { data: { confirm: 'nope' }, headers: h });
  expect(wrong.status()).toBe(400);
  const foreign = await ctx.request.delete('/api/account', {
    data: { confirm: dora.email },
    headers: { origin: 'https://evil.test' },
  });
  expect(foreign.status()).toBe(403);

  const page = await ctx.newPage();
  await page.goto('/account');
  const button = page.getByRole('button', { name: 'Delete account' });
  await expect(button).toBeDisabled();
  const confirm = page.getByLabel(/Type your email/);
  await confirm.fill('someone-else@example.com');
  await expect(button).toBeDisabled();
  await confirm.fill(dora.email);
  await button.click();
  await expect(page).toHaveURL(/\/sign-in$/);

  expect(await signInStatus(browser, dora.email, dora.password)).toBe(401);
  expect((await ctx.request.get('/api/conversations')).status()).toBe(401);
  expect((await admin.request.get(`/share/${token}`)).status()).toBe(404);
  const users = (await (await admin.request.get('/api/admin/users')).json()) as {
    items: Array<{ email: string }>;
  };
  expect(users.items.map((u) => u.email)).not.toContain(dora.email.toLowerCase());
  // The conversation row is gone: its id is free again (another user's existing id would be a 404).
  const reuse = await admin.request.post('/api/chat', {
    data: { id, message: { id: `${id}-a`, role: 'user', parts: [{ type: 'text', text: 'Mine now' }] } },
    headers: h,
  });
  expect(reuse.status(), await reuse.text()).toBe(200);
  await reuse.body();
  const mine = (await (await admin.request.get(`/api/conversations/${id}`)).json()) as {
    messages: Array<{ parts: Array<{ type: string; text?: string }> }>;
  };
  expect(JSON.stringify(mine.messages)).not.toContain('Remember me');
  await admin.request.delete(`/api/conversations/${id}`, { headers: h });
  await Promise.all([admin, ctx].map((c) => c.close()));
});

test('the last admin cannot delete themself (API and page); another admin can delete their own account', async ({
  browser,
}) => {
  // On the instance without a provider, where no spec makes a second admin.
  const admin = await adminContext(browser, NO_PROVIDER_URL);
  const np = originHeaders(NO_PROVIDER_URL);
  const { items } = (await (await admin.request.get('/api/admin/users')).json()) as {
    items: Array<{ email: string; role: string; disabled: boolean }>;
  };
  // Precondition: the suite's admin is the only enabled admin there (else this test would delete it).
  expect(items.filter((u) => u.role === 'admin' && !u.disabled).map((u) => u.email)).toEqual([ADMIN.email]);
  const refused = await admin.request.delete('/api/account', { data: { confirm: ADMIN.email }, headers: np });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error.message).toContain('last admin');

  const page = await admin.newPage();
  await page.goto('/account');
  await page.getByLabel(/Type your email/).fill(ADMIN.email);
  await page.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'You are the last admin' })).toBeVisible();
  expect((await admin.request.get('/api/admin/users')).status()).toBe(200);
  await admin.close();

  // Where another admin exists, an admin may go.
  const main = await adminContext(browser);
  const second = specUser('s41', 'Otto Otheradmin');
  const created = await main.request.post('/api/admin/users', {
    data: { ...second, role: 'admin' },
    headers: h,
  });
  expect(created.status()).toBe(201);
  const otto = await formSession(browser, second);
  const gone = await otto.request.delete('/api/account', { data: { confirm: second.email }, headers: h });
  expect(gone.status()).toBe(204);
  expect(await signInStatus(browser, second.email, second.password)).toBe(401);
  await Promise.all([main, otto].map((c) => c.close()));
});

test('signed out by another session mid-conversation: the chat offers to sign in again and comes back with the message kept', async ({
  browser,
}) => {
  const admin = await adminContext(browser);
  const nina = specUser('s41', 'Nina Signed-out');
  await ensureUser(admin.request, nina);
  const here = await formSession(browser, nina);
  const other = await formSession(browser, nina);
  const page = await here.newPage();
  await page.goto('/');
  await send(page, 'Before the session ended');
  await expect(assistantMessages(page).last()).not.toBeEmpty();
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
  const conversation = new URL(page.url()).pathname;

  // "Sign out everywhere else" from the other device ends this tab's session.
  expect((await other.request.delete('/api/account/sessions', { headers: h })).status()).toBe(204);
  await send(page, 'Written after the session ended');
  const notice = page.locator('[data-chat-error]');
  await expect(notice).toContainText('Sign in first.');
  // Retry could only fail again: the way out is signing in, back to this conversation.
  await expect(notice.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await notice.getByRole('link', { name: 'Sign in again' }).click();
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel('Email').fill(nina.email);
  await page.getByLabel('Password').fill(nina.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(conversation);
  await expect(userTexts(page)).toHaveText(['Before the session ended']);
  await expect(composer(page)).toHaveValue('Written after the session ended');
  await Promise.all([admin, here, other].map((c) => c.close()));
});
