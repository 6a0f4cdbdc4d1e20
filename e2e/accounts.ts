import { request as httpRequest } from 'node:http';
import { basename } from 'node:path';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Cookie,
  expect,
  type Page,
  test,
} from '@playwright/test';
import { APP_URL } from '../playwright.config';

/**
 * Accounts and signing in, made so that every spec file runs alone or in any order:
 * - the admin (the first account) is made by the `setup` project (e2e/first-admin.setup.ts), which
 *   every spec depends on, on the fresh database of each run;
 * - every other account belongs to one spec file (specUser), created in that file with ensureUser, so
 *   no file shares users, their data or their per-user limits (chat requests per minute) with another;
 * - the helper signs in from a loopback address of the spec file's own (specAddress), so the auth
 *   library's per-address limits (sign-in: 30 a minute) are never a budget files share.
 */

export type Account = { name: string; email: string; password: string };

export const ADMIN: Account = { name: 'Ada Admin', email: 'admin@example.com', password: 'admin-password-1' };
/** Chat requests per minute allowed while the suite runs (set by the setup project). */
export const SUITE_CHAT_RATE = 1000;

/** An account of one spec file's own (`spec` names the file, e.g. 's28'); create it with ensureUser. */
export function specUser(spec: string, name: string): Account {
  const first = name.split(' ')[0]?.toLowerCase() ?? 'user';
  return { name, email: `${first}-${spec}@example.com`, password: `${first}-password-1` };
}

/** Requests that change state carry our Origin, as a browser would. */
export const originHeaders = (base = APP_URL) => ({ origin: base });

/** 127.0.x.y (x ≥ 1, so never one of the 127.0.0.* addresses specs use on purpose) for this spec file. */
function specAddress(): string {
  let file = 'outside-a-test';
  try {
    file = basename(test.info().file);
  } catch {
    /* not in a test or hook: one shared address */
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < file.length; i++) h = Math.imul(h ^ file.charCodeAt(i), 0x01000193) >>> 0;
  return `127.0.${1 + (h % 254)}.${1 + ((h >>> 8) % 254)}`;
}

type AuthResponse = { status: number; body: string; setCookies: string[] };

/** A request to the auth API from this spec file's own address (node:http: fetch cannot pick it). */
function authRequest(base: string, path: string, init: { body?: unknown; cookie?: string }) {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise<AuthResponse>((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method: payload === undefined ? 'GET' : 'POST',
        localAddress: specAddress(),
        headers: {
          ...originHeaders(base),
          ...(payload !== undefined && { 'content-type': 'application/json' }),
          ...(init.cookie && { cookie: init.cookie }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            setCookies: res.headers['set-cookie'] ?? [],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A Set-Cookie header as a cookie for the browser context. */
function toCookie(header: string, base: string): Cookie {
  const [pair = '', ...attributes] = header.split(';').map((s) => s.trim());
  const flags = new Map(
    attributes.map((a) => {
      const eq = a.indexOf('=');
      return eq < 0 ? [a.toLowerCase(), ''] : [a.slice(0, eq).toLowerCase(), a.slice(eq + 1)];
    }),
  );
  const maxAge = flags.get('max-age');
  const sameSite = flags.get('samesite')?.toLowerCase();
  const url = new URL(base);
  return {
    name: pair.slice(0, pair.indexOf('=')),
    value: pair.slice(pair.indexOf('=') + 1),
    domain: url.hostname,
    path: flags.get('path') || '/',
    expires: maxAge ? Math.floor(Date.now() / 1000) + Number(maxAge) : -1,
    httpOnly: flags.has('httponly'),
    secure: flags.has('secure'),
    sameSite: sameSite === 'strict' ? 'Strict' : sameSite === 'none' ? 'None' : 'Lax',
  };
}

const cookieHeader = (cookies: Cookie[]) => cookies.map((c) => `${c.name}=${c.value}`).join('; ');

/**
 * Session cookies per account and server, kept for the worker's life: each account signs in once per
 * worker, not once per test.
 */
const sessions = new Map<string, Cookie[]>();

/** Signs in through the auth API; the session cookies land in the context. */
export async function signIn(ctx: BrowserContext | Page, account: Account, base = APP_URL): Promise<void> {
  const context = 'context' in ctx ? ctx.context() : ctx;
  const key = `${base} ${account.email}`;
  let cookies = sessions.get(key);
  if (cookies) {
    const check = await authRequest(base, '/api/auth/get-session', { cookie: cookieHeader(cookies) });
    const still = check.status === 200 && JSON.parse(check.body || 'null')?.user?.email === account.email;
    if (!still) cookies = undefined;
  }
  if (!cookies) {
    const res = await authRequest(base, '/api/auth/sign-in/email', {
      body: { email: account.email, password: account.password },
    });
    if (res.status !== 200) {
      const hint =
        account === ADMIN ? ' (the setup project, e2e/first-admin.setup.ts, creates the admin)' : '';
      throw new Error(`sign-in failed for ${account.email}: ${res.status} ${res.body}${hint}`);
    }
    cookies = res.setCookies.map((c) => toCookie(c, base));
    sessions.set(key, cookies);
  }
  await context.addCookies(cookies);
}

/** The admin creates a user (idempotent), through `base` (another app's: with that app's `origin`). */
export async function ensureUser(
  adminRequest: APIRequestContext,
  account: Account,
  base = APP_URL,
  origin = base,
): Promise<void> {
  const res = await adminRequest.post(`${base}/api/admin/users`, {
    data: { ...account, role: 'user' },
    headers: originHeaders(origin),
  });
  expect([201, 409]).toContain(res.status());
}

/** The admin, in a context of its own for the purpose, creates these users (idempotent): a spec's beforeAll. */
export async function ensureUsers(browser: Browser, ...accounts: Account[]): Promise<void> {
  const admin = await browser.newContext();
  try {
    await signIn(admin, ADMIN);
    for (const account of accounts) await ensureUser(admin.request, account);
  } finally {
    await admin.close();
  }
}
