/** Isomorphic URL rules for untrusted text: links may be http(s) or mailto only; everything else is dropped. */
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

export function safeLinkUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const trimmed = url.trim();
  if (trimmed.startsWith('#')) return trimmed;
  try {
    const parsed = new URL(trimmed);
    return LINK_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null; // relative and malformed URLs are not followed from model output
  }
}

/** Remote images load only after a click; this names the host the click would contact. */
export function remoteImageHost(url: string | null | undefined): { href: string; host: string } | null {
  if (!url) return null;
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return { href: parsed.href, host: parsed.host };
  } catch {
    return null;
  }
}

/** The longest path accepted to return to after signing in (anything longer goes home). */
export const RETURN_TO_MAX = 1000;
const RETURN_TO_BASE = 'https://return-to.invalid';

/**
 * A path of this app to return to after signing in: one leading `/` (never `//x` or `/\x`, which a
 * browser reads as another host), no scheme, no backslash, whitespace or control character anywhere, no
 * encoded `/` or `\` in the path, and one that still names this origin once a browser has resolved it
 * (`/.//x` would not).
 */
export function isSafeReturnPath(value: string): boolean {
  if (value.length > RETURN_TO_MAX || !/^\/(?![/\\])/.test(value)) return false;
  if (/[\\\s\p{Cc}]/u.test(value)) return false;
  if (/%2f|%5c/i.test(value.split(/[?#]/, 1)[0] ?? '')) return false;
  try {
    const url = new URL(value, RETURN_TO_BASE);
    return url.origin === RETURN_TO_BASE && !url.pathname.startsWith('//');
  } catch {
    return false;
  }
}

/** A path of this app to return to after sign-in; anything else (another origin, `//x`) goes home. */
export function safeReturnTo(value: unknown): string {
  return typeof value === 'string' && isSafeReturnPath(value) ? value : '/';
}

/**
 * The request header the proxy (proxy.ts) sets on every page request: the path and query the browser
 * asked for, so a page that sends a signed-out visitor to sign in can bring them back there.
 */
export const REQUESTED_PATH_HEADER = 'x-requested-path';

/**
 * The sign-in or sign-up page that returns to `next` once signed in: `next` only when it is a path of
 * this app other than home (anything else is left out, so the page goes home), with an `error` code.
 */
export function authPagePath(page: '/sign-in' | '/sign-up', next: unknown, error?: string): string {
  const query = new URLSearchParams();
  if (error) query.set('error', error);
  const to = safeReturnTo(next);
  if (to !== '/') query.set('next', to);
  return query.size ? `${page}?${query}` : page;
}
