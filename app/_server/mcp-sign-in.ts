import 'server-only';
import * as z from '@/lib/zod';
import { signInServer } from '@/app/_server/mcp-connections';
import { beginSignIn, finishSignIn, type PendingSignIn } from '@/app/_server/mcp-oauth';
import { getSessionUser } from '@/app/_server/session';
import type { Principal } from '@/lib/access';
import { getEnv } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { safeReturnTo } from '@/lib/safe-url';
import { loggable } from '@/lib/loggable';

/**
 * Each pending sign-in rides in a short-lived cookie of its own (named after its state), only to the
 * callback, so any instance can finish it, and sign-ins started in two tabs each finish in their tab.
 */
const COOKIE = 'mcp_oauth_';
const PendingSchema = z.object({
  server: z.string().max(64),
  state: z.string().max(500),
  returnTo: z.string(),
});

/** The cookie of the sign-in with this state (its first characters: our states are random base64url). */
const cookieName = (state: string) => `${COOKIE}${state.replace(/[^\w-]/g, '').slice(0, 16)}`;

function cookie(name: string, value: string, maxAge: number): string {
  const secure = getEnv().APP_URL.startsWith('https:') ? '; Secure' : '';
  return `${name}=${value}; Path=/api/mcp/oauth; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/** The browser's pending sign-in cookies, by name. */
function pendingCookies(req: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of req.headers.get('cookie')?.split(/;\s*/) ?? []) {
    const at = c.indexOf('=');
    if (at > 0 && c.startsWith(COOKIE)) out.set(c.slice(0, at), c.slice(at + 1));
  }
  return out;
}

/** The pending sign-in this browser started with `state`, if it carries one. */
function readPending(cookies: Map<string, string>, state: string | null): PendingSignIn | null {
  const raw = state ? cookies.get(cookieName(state)) : undefined;
  if (!raw) return null;
  try {
    const parsed = PendingSchema.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
    return parsed.success && parsed.data.state === state ? parsed.data : null;
  } catch {
    return null;
  }
}

export const AuthorizeSchema = z.object({ returnTo: z.string().max(1000).optional() }).strict();

/** POST /api/mcp/connections/[server]/authorize: `{ url }` to send the browser to. */
export async function startSignIn(user: Principal, server: string, returnTo: string | undefined) {
  const started = await beginSignIn(user, await signInServer(user, server), returnTo ?? '/');
  if ('authorized' in started) return Response.json({ authorized: true });
  const value = Buffer.from(JSON.stringify(started.pending)).toString('base64url');
  const name = cookieName(started.pending.state);
  return Response.json({ url: started.url }, { headers: { 'set-cookie': cookie(name, value, 600) } });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The callback's answer when the sign-in did not complete: what happened, and a way back. */
function failurePage(message: string, returnTo: string, status: number, done?: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in failed</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem"><h1 style="font-size:1.25rem">The sign-in did not complete</h1><p role="alert">${escapeHtml(message)}</p><p><a href="${escapeHtml(returnTo)}">Back to the conversation</a></p></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      ...(done && { 'set-cookie': cookie(cookieName(done), '', 0) }),
    },
  });
}

/**
 * GET /api/mcp/oauth/callback: the signed-in user's pending sign-in (cookie) must match the `state`;
 * the code is exchanged, the tokens stored sealed, and the browser goes back where it started.
 */
export async function completeSignIn(req: Request): Promise<Response> {
  const params = new URL(req.url).searchParams;
  const state = params.get('state');
  const cookies = pendingCookies(req);
  const pending = readPending(cookies, state);
  // Only this sign-in's cookie is cleared: another tab's sign-in goes on.
  const done = pending?.state;
  const returnTo = safeReturnTo(pending?.returnTo);
  const user = await getSessionUser(req.headers);
  if (!user) return failurePage('Sign in to the app first, then connect the server again.', '/', 401);
  const denied = params.get('error');
  if (denied) {
    const why = params.get('error_description') ?? denied;
    const who = pending?.server ?? 'The server';
    return failurePage(`${who} refused the sign-in: ${why.slice(0, 300)}`, returnTo, 400, done);
  }
  if (!cookies.size)
    return failurePage('This sign-in expired or was started elsewhere. Try Connect again.', '/', 400);
  const code = params.get('code');
  if (!code || !state || !pending)
    return failurePage(
      'The sign-in answer does not match the one started here. Try Connect again.',
      '/',
      400,
    );
  try {
    await finishSignIn(user, await signInServer(user, pending.server), code, state);
  } catch (err) {
    const message = err instanceof AppError ? err.message : 'The token exchange failed. Try Connect again.';
    if (!(err instanceof AppError)) console.error('[mcp] oauth callback failed', loggable(err));
    const status = err instanceof AppError && err.code === 'not_found' ? 404 : 400;
    return failurePage(message, returnTo, status, done);
  }
  return new Response(null, {
    status: 303,
    headers: { location: `${getEnv().APP_URL}${returnTo}`, 'set-cookie': cookie(cookieName(state), '', 0) },
  });
}
