import { type Browser, type BrowserContext, expect } from '@playwright/test';
import { APP_URL } from '../playwright.config';
import { ADMIN, type Account, originHeaders, signIn } from './helpers';

// What the two account specs share: 41-account.spec.ts (password, sessions, deleting an account) and
// 49-account-admin.spec.ts (an admin's password reset, the manifest, the first-run checklist, the
// account page's links and connections). Accounts whose password changes sign in through the form.

const h = originHeaders();

/** A browser context signed in through the sign-in form (a session of its own). */
export async function formSession(browser: Browser, who: Account, base = APP_URL): Promise<BrowserContext> {
  const ctx = await browser.newContext({ baseURL: base });
  const page = await ctx.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await page.close();
  return ctx;
}

/** A status of an API sign-in (no session kept). */
export async function signInStatus(browser: Browser, email: string, password: string): Promise<number> {
  const ctx = await browser.newContext();
  const res = await ctx.request.post('/api/auth/sign-in/email', { data: { email, password }, headers: h });
  await ctx.close();
  return res.status();
}

/** A context signed in as the admin (through the cached helper). */
export async function adminContext(browser: Browser, base = APP_URL): Promise<BrowserContext> {
  const ctx = await browser.newContext({ baseURL: base });
  await signIn(ctx, ADMIN, base);
  return ctx;
}

/** A user's id, from the admin's user list. */
export async function userId(admin: BrowserContext, email: string): Promise<string> {
  const { items } = (await (await admin.request.get('/api/admin/users')).json()) as {
    items: Array<{ id: string; email: string }>;
  };
  const id = items.find((u) => u.email === email.toLowerCase())?.id;
  if (!id) throw new Error(`no user ${email}`);
  return id;
}
