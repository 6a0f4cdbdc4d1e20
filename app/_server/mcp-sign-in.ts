import 'server-only';
import * as z from '@/lib/zod';
import { signInServer } from '@/app/_server/mcp-connections';
import { beginSignIn, finishSignIn, type PendingSignIn } from '@/app/_server/mcp-oauth';
import { getSessionUser } from '@/app/_server/session';
import type { Principal } from '@/lib/access';
import { getEnv } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { safeReturnTo } from '@/lib/safe-url';

/** The pending sign-in rides in a short-lived cookie, only to the callback, so any instance can finish it. */
const COOKIE = 'mcp_oauth';
const PendingSchema = z.object({
  server: z.string().max(64),
  state: z.string().max(500),
  returnTo: z.string(),
});

function cookie(value: string, maxAge: number): string {
  const secure = getEnv().APP_URL.startsWith('https:') ? '; Secure' : '';
  return `${COOKIE}=${value}; Path=/api/mcp/oauth; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

function readPending(req: Request): PendingSignIn | null {
  const raw = req.headers
    .get('cookie')
    ?.split(/;\s*/)
    .find((c) => c.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1);
  if (!raw) return null;
  try {
    const parsed = PendingSchema.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
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
  return Response.json({ url: started.url }, { headers: { 'set-cookie': cookie(value, 600) } });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The callback's answer when the sign-in did not complete: what happened, and a way back. */
function failurePage(message: string, returnTo: string, status: number): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in failed</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem"><h1 style="font-size:1.25rem">The sign-in did not complete</h1><p role="alert">${escapeHtml(message)}</p><p><a href="${escapeHtml(returnTo)}">Back to the conversation</a></p></body></html>`;
  return new Response(html, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'set-cookie': cookie('', 0) },
  });
}

/**
 * GET /api/mcp/oauth/callback: the signed-in user's pending sign-in (cookie) must match the `state`;
 * the code is exchanged, the tokens stored sealed, and the browser goes back where it started.
 */
export async function completeSignIn(req: Request): Promise<Response> {
  const params = new URL(req.url).searchParams;
  const pending = readPending(req);
  const returnTo = safeReturnTo(pending?.returnTo);
  const user = await getSessionUser(req.headers);
  if (!user) return failurePage('Sign in to the app first, then connect the server again.', '/', 401);
  const denied = params.get('error');
  if (denied) {
    const why = params.get('error_description') ?? denied;
    const who = pending?.server ?? 'The server';
    return failurePage(`${who} refused the sign-in: ${why.slice(0, 300)}`, returnTo, 400);
  }
  if (!pending)
    return failurePage('This sign-in expired or was started elsewhere. Try Connect again.', '/', 400);
  const code = params.get('code');
  const state = params.get('state');
  if (!code || !state || state !== pending.state)
    return failurePage(
      'The sign-in answer does not match the one started here. Try Connect again.',
      returnTo,
      400,
    );
  try {
    await finishSignIn(user, await signInServer(user, pending.server), code, state);
  } catch (err) {
    const message = err instanceof AppError ? err.message : 'The token exchange failed. Try Connect again.';
    if (!(err instanceof AppError)) console.error('[mcp] oauth callback failed', err);
    return failurePage(message, returnTo, err instanceof AppError && err.code === 'not_found' ? 404 : 400);
  }
  return new Response(null, {
    status: 303,
    headers: { location: `${getEnv().APP_URL}${returnTo}`, 'set-cookie': cookie('', 0) },
  });
}
