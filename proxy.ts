import { type NextRequest, NextResponse } from 'next/server';
import { REQUESTED_PATH_HEADER } from '@/lib/safe-url';
import { takeShareLookup } from '@/lib/share/lookup-limit';

/**
 * A fresh nonce per page request and a strict Content-Security-Policy: scripts only from us (Next's
 * own inline scripts carry the nonce), no eval in production, images only from us and data: URLs
 * (remote images from model output open in a new tab only after a click), no framing. Every page
 * response gets it, prefetches included: a prefetched page is shown as it was fetched.
 * Mermaid diagrams need nothing more: Mermaid (our own chunks) runs without eval, and its SVG is shown in a
 * `sandbox=""` srcdoc iframe, which loads nothing (no frame-src request) and inherits this policy.
 */
export async function proxy(request: NextRequest) {
  // Public share links: probing for tokens is limited per client address (S13).
  if (request.nextUrl.pathname.startsWith('/share/')) {
    const lookup = await takeShareLookup(request.headers);
    if (!lookup.ok) {
      return new NextResponse('Too many requests. Try again later.', {
        status: 429,
        headers: {
          'Retry-After': String(lookup.retryAfterS),
          'Cache-Control': 'no-store',
          'Content-Type': 'text/plain; charset=utf-8',
        },
      });
    }
  }
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const dev = process.env.NODE_ENV === 'development';
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // Audio returned by MCP tools plays from data: URLs.
    "media-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  // The page asked for (never a client's own value): sign-in comes back to it (app/_server/page-user.ts).
  headers.set(REQUESTED_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  headers.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

export const config = {
  // Every page, prefetches included; not the API or static files.
  matcher: ['/((?!api|_next/static|_next/image|favicon.ico).*)'],
};
