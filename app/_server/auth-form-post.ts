import 'server-only';
import { handleAuthRequest } from '@/app/_server/auth-gate';
import { assertSameOrigin, errorResponse, readBodyText } from '@/lib/http';
import { authErrorCode, authFormError } from '@/lib/auth-form-errors';
import { ReturnToSchema } from '@/lib/schemas/return-to';
import { authPagePath } from '@/lib/safe-url';
import { isSecureOrLoopback, SSO_PROVIDER_ID } from '@/lib/sso';

export type AuthFormMode = 'sign-in' | 'sign-up';

const redirectTo = (location: string, headers = new Headers()) => {
  headers.set('Location', location);
  return new Response(null, { status: 303, headers });
};

/**
 * The sign-in and sign-up forms without JavaScript: a form POST (never a GET that would put the
 * password in the URL), answered through the same gate as the JSON endpoints, then a redirect with the
 * session cookie (home, or the path of this app the form names in `next`), or back to the form with an
 * error code (and the same `next`).
 */
export async function handleAuthFormPost(req: Request, mode: AuthFormMode): Promise<Response> {
  assertSameOrigin(req);
  const form = new URLSearchParams(await readBodyText(req));
  const value = (key: string) => form.get(key) ?? '';
  const next = ReturnToSchema.parse(form.get('next'));
  const fields =
    mode === 'sign-up'
      ? { name: value('name'), email: value('email'), password: value('password') }
      : { email: value('email'), password: value('password') };
  const headers = new Headers(req.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json');
  const inner = new Request(new URL(`/api/auth/${mode}/email`, req.url), {
    method: 'POST',
    headers,
    body: JSON.stringify(fields),
  });
  const res = await handleAuthRequest(inner).catch(errorResponse);
  if (!res.ok) {
    const code = authErrorCode(await res.json().catch(() => null));
    return redirectTo(authPagePath(`/${mode}` as const, next, authFormError(mode, res.status, code)));
  }
  const out = new Headers();
  for (const cookie of res.headers.getSetCookie()) out.append('Set-Cookie', cookie);
  return redirectTo(next, out);
}

/**
 * "Sign in with <provider>" (`sso`) and "Link <provider>" (`sso-link`, signed in: adds the provider's
 * identity with the same verified email to the account): a form POST that asks the auth library for
 * the provider's authorization URL (its state cookie comes along) and sends the browser there. The
 * provider sends it back to /api/auth/callback/sso, then to `/` (or the path of this app the sign-in
 * page names in `next`) or, on an error, to the page it came from with `error=<code>`. A link form may
 * name that page in `returnTo` (default /admin/sso; an account page can offer "Link" too).
 */
export async function handleSsoFormPost(req: Request, mode: 'sso' | 'sso-link'): Promise<Response> {
  assertSameOrigin(req);
  const form = new URLSearchParams(await readBodyText(req));
  const returnTo = form.get('returnTo') ?? '';
  const next = mode === 'sso' ? ReturnToSchema.parse(form.get('next')) : '/';
  // Linking comes back to the page it started from: a plain path of this app (never another origin).
  const back =
    mode === 'sso'
      ? authPagePath('/sign-in', next)
      : /^\/(?![/\\])[a-z0-9/_-]{0,100}$/.test(returnTo)
        ? returnTo
        : '/admin/sso';
  const body =
    mode === 'sso'
      ? { provider: SSO_PROVIDER_ID, callbackURL: next, newUserCallbackURL: next, errorCallbackURL: back }
      : { provider: SSO_PROVIDER_ID, callbackURL: `${back}?linked=1`, errorCallbackURL: back };
  const headers = new Headers(req.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json');
  const path = mode === 'sso' ? '/api/auth/sign-in/social' : '/api/auth/link-social';
  const inner = new Request(new URL(path, req.url), { method: 'POST', headers, body: JSON.stringify(body) });
  const res = await handleAuthRequest(inner).catch(errorResponse);
  const data = res.ok ? ((await res.json().catch(() => null)) as { url?: unknown } | null) : null;
  // The provider's sign-in page: https (http only on this machine), as its discovery document said.
  if (typeof data?.url !== 'string' || !isSecureOrLoopback(data.url))
    return redirectTo(
      `${back}${back.includes('?') ? '&' : '?'}error=${res.status === 401 ? 'signed_out' : 'sso_unavailable'}`,
    );
  const out = new Headers({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy':
      "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    'Referrer-Policy': 'no-referrer',
  });
  for (const cookie of res.headers.getSetCookie()) out.append('Set-Cookie', cookie);
  // Not a redirect: the page's CSP (form-action 'self') would stop a form's redirect to the provider.
  // A page that moves on by itself is a new navigation (and works without JavaScript).
  const href = escapeAttribute(data.url);
  return new Response(
    `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>…</title></head><body><p><a href="${href}">→</a></p></body></html>`,
    { status: 200, headers: out },
  );
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
};
const escapeAttribute = (value: string) => value.replace(/[&"'<>]/g, (c) => ATTRIBUTE_ESCAPES[c] ?? c);
