// Single sign-on in e2e specs (42, 64): the OIDC fixture (e2e/fixtures/oidc-provider.mjs, a real provider
// on a free port) and signing in through it from the app's sign-in page.
import { resolve } from 'node:path';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
} from '@playwright/test';
import { APP_URL } from '../playwright.config';

type Claims = Record<string, unknown>;
export type Idp = {
  url: string;
  issuer: string;
  stats(): { authorizations: number; tokens: number; userinfo: number; lastIdTokenClaims: Claims | null };
  /** Sign-ins with this email in the provider's form answer with these claims (null: as usual again). */
  overrideClaims(email: string, o: { claims?: Claims; idToken?: Claims; userinfo?: Claims } | null): void;
  close(): Promise<void>;
};

/** The fixture provider for one client, redirecting to this app's callback. */
export async function startIdp(client: { clientId: string; clientSecret: string }): Promise<Idp> {
  const { startOidcProvider } = (await import(resolve('e2e/fixtures/oidc-provider.mjs'))) as {
    startOidcProvider: (o: object) => Promise<Idp>;
  };
  return startOidcProvider({ ...client, redirectUris: [`${APP_URL}/api/auth/callback/sso`] });
}

/** From the sign-in page through the provider's form; returns the page where the app sent the browser. */
export async function ssoSignIn(
  browser: Browser,
  email: string,
  opts: { verified?: boolean; button?: string; start?: string } = {},
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(opts.start ?? '/sign-in');
  await page.getByRole('button', { name: opts.button ?? 'Sign in with Test IdP' }).click();
  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  if (opts.verified === false) await page.getByLabel('Email verified').uncheck();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.origin === APP_URL);
  return { page, context };
}

/** The account with this email in the admin's user list, or null. */
export async function userByEmail(request: APIRequestContext, email: string) {
  const res = await request.get('/api/admin/users');
  const { items } = (await res.json()) as { items: Array<{ email: string; role: string; name: string }> };
  return items.find((u) => u.email === email) ?? null;
}
