import { TokenBuckets } from '@/lib/token-bucket';

/** Public share-page lookups per client IP: a burst of 60, then one a second (60 a minute). */
export const SHARE_LOOKUP_BURST = 60;
export const SHARE_LOOKUPS_PER_SECOND = 1;

const g = globalThis as unknown as { __shareLookups?: TokenBuckets };

/**
 * The client's address. Next sets X-Forwarded-For to the socket's address when a request has none;
 * behind a reverse proxy the last entry is the one the proxy added. (Exposed directly, a client can
 * send its own header and so choose its key: put a proxy in front for the limit to hold per address.)
 */
export function clientIp(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for') ?? '';
  return forwarded.split(',').at(-1)?.trim() || 'unknown';
}

/** Counts one share lookup; when over the limit, how many seconds until the next is allowed. */
export function takeShareLookup(headers: Headers, now = Date.now()): { ok: true } | { ok: false; retryAfterS: number } {
  g.__shareLookups ??= new TokenBuckets(SHARE_LOOKUP_BURST, SHARE_LOOKUPS_PER_SECOND);
  return g.__shareLookups.take(clientIp(headers), now);
}
