import 'server-only';
import { BASE_ERROR_CODES } from '@better-auth/core/error';
import * as z from '@/lib/zod';
import { AUTH_CLIENT_ADDRESS_HEADER, getAuth, SIGN_UP_CLOSED, signUpOpen } from '@/app/_server/auth';
import { cachedUser, invalidateUser } from '@/app/_server/hot-cache';
import { getSessionUser } from '@/app/_server/session';
import { passwordSignInEnabled } from '@/app/_server/sso';
import { getEnv } from '@/lib/env';
import { AppError, notFound } from '@/lib/errors';
import { parseWith, readBodyText } from '@/lib/http';
import { nestsDeeperThan } from '@/lib/json-depth';
import { signInBackoff } from '@/lib/shared/limits';
import { hasNoNul, NO_NUL } from '@/lib/stored-text';
import { clientAddress } from '@/lib/net/client-address';
import { processState } from '@/lib/process-state';
import { SSO_PROVIDER_ID } from '@/lib/sso';

/** Field maxima for every auth endpoint's JSON body; the library's own checks come after these. */
const AuthFieldsSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(100, 'must be at most 100 characters')
      .refine(hasNoNul, NO_NUL)
      .optional(),
    email: z.string().max(254, 'must be at most 254 characters').refine(hasNoNul, NO_NUL).optional(),
    newEmail: z.string().max(254, 'must be at most 254 characters').refine(hasNoNul, NO_NUL).optional(),
    password: z.string().max(128, 'must be at most 128 characters').optional(),
    currentPassword: z.string().max(128, 'must be at most 128 characters').optional(),
    newPassword: z.string().max(128, 'must be at most 128 characters').optional(),
    image: z
      .string()
      .max(2048, 'must be at most 2048 characters')
      .refine(hasNoNul, NO_NUL)
      .nullable()
      .optional(),
  })
  .loose();

/**
 * The auth library's endpoints the app uses; every other one (session lists that carry session tokens,
 * account deletion that would skip the last-admin check and the data clean-up, password "verify" and
 * reset flows, listing and unlinking accounts, other providers, …) answers 404. The account page's own routes (app/api/account) call the
 * library's functions on the server instead.
 */
const OPEN_PATHS = new Set([
  '/sign-up/email',
  '/sign-in/email',
  '/sign-out',
  '/get-session',
  '/update-user',
  '/change-password',
  // Single sign-on (app/_server/auth-form-post.ts): start, link, the provider's redirect back, the error page.
  '/sign-in/social',
  '/link-social',
  `/callback/${SSO_PROVIDER_ID}`,
  '/error',
]);

/** The open endpoints that change the signed-in user's account: only for an enabled user (getSessionUser). */
const ACTS_AS_USER = new Set(['/update-user', '/change-password', '/link-social']);

const backoff = () => processState('loginBackoff', signInBackoff);

/**
 * Two sign-ups with one email at once both find it free; one writes the user, the other's insert fails on
 * the unique email (SQLite and Postgres word that differently) and the library answers 422 "Failed to
 * create user". When the email has an account now, that answer becomes the library's own for a sign-up a
 * moment later (422 "already exists"): nothing more than that answer tells, whatever made the insert fail.
 */
async function asLateSignUp(res: Response, email: unknown): Promise<Response> {
  if (res.status !== 422 || typeof email !== 'string') return res;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown } | null;
  if (body?.code !== BASE_ERROR_CODES.FAILED_TO_CREATE_USER.code) return res;
  // The library's own lookup, as its duplicate check does it (lowercased).
  const ctx = await (await getAuth()).$context;
  if (!(await ctx.internalAdapter.findUserByEmail(email.toLowerCase()))) return res;
  const { message, code } = BASE_ERROR_CODES.USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL;
  return Response.json({ message, code }, { status: 422 });
}

/**
 * A name changed through the library's endpoint: the app's cached row of the user (app/_server/hot-cache.ts)
 * goes, so the next request sees the new name, as after PATCH /api/account.
 */
async function afterUserUpdate(res: Response, headers: Headers): Promise<Response> {
  if (!res.ok) return res;
  const found = await (await getAuth()).api.getSession({ headers });
  if (found) invalidateUser(found.user.id);
  return res;
}

/**
 * The library's session for a disabled account's session that outlived the switch: no session, as every app
 * route answers it (getSessionUser), not the account's name, email and role; the library's cookies kept.
 */
async function asAppSession(res: Response): Promise<Response> {
  if (!res.ok) return res;
  // The session the library found names its user: that row is read from the cache, not the session again.
  const found = (await res
    .clone()
    .json()
    .catch(() => null)) as { user?: { id?: unknown } } | null;
  const id = found?.user?.id;
  const row = typeof id === 'string' ? await cachedUser(id) : null;
  if (!found || (row && !row.disabled)) return res;
  const none = Response.json(null, { headers: { 'cache-control': 'no-store' } });
  for (const cookie of res.headers.getSetCookie()) none.headers.append('set-cookie', cookie);
  return none;
}

/** No auth endpoint takes more than a couple of levels; deeper bodies are refused before anything walks them. */
const MAX_DEPTH = 16;

function parseFields(text: string): Record<string, unknown> | null {
  if (!text.trim()) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('bad_request', 'Request body is not valid JSON.');
  }
  if (nestsDeeperThan(value, MAX_DEPTH))
    throw new AppError('bad_request', `Request body is nested deeper than ${MAX_DEPTH} levels.`);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new AppError('bad_request', 'Request body must be a JSON object.');
  return parseWith(AuthFieldsSchema, value, 'request body');
}

/**
 * Every request to the auth library's endpoints passes here first: the 1 MB body cap and field maxima
 * (the library has neither), the client address taken from the socket (or a trusted proxy), a password
 * change that always signs out the other sessions, no account change by a disabled account's session
 * (ACTS_AS_USER) and no session shown to it (asAppSession), the per-account sign-in back-off, and no email and
 * password sign-in or sign-up while the admin has turned it off (single sign-on only), no sign-up while
 * it is closed, and a sign-up losing the race for its email answered as a later one (asLateSignUp).
 */
export async function handleAuthRequest(req: Request): Promise<Response> {
  const path = new URL(req.url).pathname.replace(/^\/api\/auth/, '');
  if (!OPEN_PATHS.has(path)) throw notFound();
  const address = clientAddress(req.headers, getEnv().TRUST_PROXY);
  const headers = new Headers(req.headers);
  headers.set(AUTH_CLIENT_ADDRESS_HEADER, address);
  if (req.method === 'GET' || req.method === 'HEAD') {
    const res = await (await getAuth()).handler(new Request(req.url, { method: req.method, headers }));
    return path === '/get-session' ? asAppSession(res) : res;
  }

  if ((path === '/sign-in/email' || path === '/sign-up/email') && !(await passwordSignInEnabled()))
    throw new AppError('forbidden', 'Password sign-in is turned off. Sign in with single sign-on.');

  let text = await readBodyText(req);
  const fields = parseFields(text);
  // The library gets the fields as checked (a name trimmed): passed on as sent, a name padded with
  // whitespace past its 100 characters was stored whole.
  if (fields) text = JSON.stringify(fields);
  // The library checks only that the session exists; a disabled account's session that outlived the
  // switch (a sign-in racing the admin's disable, the flag set outside the app) acts for it no more.
  if (ACTS_AS_USER.has(path) && !(await getSessionUser(req.headers)))
    throw new AppError('unauthorized', 'Sign in first.');
  // Closed sign-up is refused here, before the library looks the email up: it would answer "already
  // exists" for a registered email ahead of the closed check (its user-create hook), telling anyone
  // which emails have accounts. The hook still refuses a sign-up racing the admin's closing it.
  if (path === '/sign-up/email' && !(await signUpOpen())) throw new AppError('forbidden', SIGN_UP_CLOSED);
  // Single sign-on takes an identity only from its own code flow (state, PKCE, that sign-in's nonce):
  // the library would also take an id_token posted here, replayable by whoever holds one for our client.
  if ((path === '/sign-in/social' || path === '/link-social') && fields?.idToken !== undefined)
    throw new AppError('bad_request', "Sign in through the provider's sign-in page.", {
      idToken: 'is not accepted',
    });
  // A password change always signs out the other sessions (the only field the gate sets).
  if (fields && path === '/change-password') text = JSON.stringify({ ...fields, revokeOtherSessions: true });
  const forward = async () =>
    (await getAuth()).handler(new Request(req.url, { method: req.method, headers, body: text }));
  if (path === '/sign-up/email') return asLateSignUp(await forward(), fields?.email);
  if (path === '/update-user') return afterUserUpdate(await forward(), headers);
  if (path !== '/sign-in/email' || typeof fields?.email !== 'string') return forward();

  const account = fields.email.trim().toLowerCase();
  const wait = await backoff().check(account, address);
  if (!wait.ok) {
    throw new AppError(
      'rate_limited',
      `Too many failed sign-ins for this account. Try again in ${wait.retryAfterS} s.`,
      undefined,
      {
        'Retry-After': String(wait.retryAfterS),
      },
    );
  }
  const res = await forward();
  if (res.ok) await backoff().success(account, address);
  else if (res.status === 401) await backoff().failure(account);
  return res;
}
