import 'server-only';
import { type LookupAddress, lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { cappedBodies } from '@/lib/net/capped-body';
import { isPrivateAddress } from '@/lib/net/private-address';
import { processState } from '@/lib/process-state';

export class BlockedAddressError extends Error {
  constructor(host: string, address: string) {
    super(
      `${host} resolves to ${address}, a private or local address. Tick "private network" on this server to allow it.`,
    );
    this.name = 'BlockedAddressError';
  }
}

/** A redirect to another origin: it could lead to a private address or carry the server's headers there. */
export class BlockedRedirectError extends BlockedAddressError {
  constructor(from: string, to: string) {
    super(from, to);
    this.message = `${from} redirected to ${to}, another origin. Only redirects within the same origin are followed; register the final URL instead.`;
    this.name = 'BlockedRedirectError';
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * Follows redirects by hand, and only within the request's origin: a literal IP in a Location header
 * never reaches the DNS check, and headers (API keys, tokens) must never follow a request elsewhere.
 */
export function sameOriginRedirects(inner: typeof fetch): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    let url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const origin = url.origin;
    let options: RequestInit = { ...init };
    for (let hop = 0; ; hop++) {
      const res = await inner(url.href, { ...options, redirect: 'manual' });
      const location = res.headers.get('location');
      if (!REDIRECTS.has(res.status) || !location) return res;
      await res.body?.cancel();
      const next = new URL(location, url);
      if (next.origin !== origin) throw new BlockedRedirectError(url.href, next.href);
      if (hop >= MAX_REDIRECTS)
        throw new BlockedRedirectError(url.href, `${next.href} (more than ${MAX_REDIRECTS} redirects)`);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && options.method === 'POST')) {
        options = { ...options, method: 'GET', body: undefined };
      }
      url = next;
    }
  }) as typeof fetch;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** dns.lookup that refuses private, loopback and link-local results — checked at connect time, so a rebinding DNS name gains nothing. */
function publicOnlyLookup(
  hostname: string,
  options: { all?: boolean; family?: number },
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { family: options.family ?? 0, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new BlockedAddressError(hostname, bad.address), []);
    const first = addresses[0];
    if (options.all || !first) return callback(null, addresses);
    callback(null, first.address, first.family);
  });
}

/**
 * The fetch remote MCP transports use. Unless the admin marked the server as being on a private
 * network, requests may only reach public addresses: literal IPs are checked before the request,
 * names when they are resolved for the connection. Either way, redirects are followed only within the
 * same origin.
 */
export function guardedFetch(allowPrivateNetwork: boolean): typeof fetch {
  // undici's own fetch, not the global one: Next patches the global fetch in route handlers.
  if (allowPrivateNetwork)
    return sameOriginRedirects(((input: string | URL | Request, init?: RequestInit) =>
      undiciFetch(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        init as never,
      )) as unknown as typeof fetch);
  const agent = processState(
    'publicAgent',
    () => new Agent({ connect: { lookup: publicOnlyLookup as never } }),
  );
  return sameOriginRedirects(((input: string | URL | Request, init?: RequestInit) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const host = new URL(href).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && isPrivateAddress(host)) return Promise.reject(new BlockedAddressError(host, host));
    return undiciFetch(href, { ...(init as object), dispatcher: agent } as never);
  }) as typeof fetch);
}

/**
 * The fetch for one remote server and its OAuth flow: "private network" is granted to the server's own
 * host name only (any port). Anything else the server points us at (protected resource metadata, an authorization
 * server, a token endpoint on another host) must be public, so a 401 naming 169.254.169.254 or a LAN
 * address is never fetched (S11). What is read of each answer is bounded (cappedBodies).
 */
export function serverFetch(serverUrl: string, allowPrivateNetwork: boolean): typeof fetch {
  const open = guardedFetch(false);
  if (!allowPrivateNetwork) return cappedBodies(open);
  const own = guardedFetch(true);
  const host = new URL(serverUrl).hostname;
  return cappedBodies(((input: string | URL | Request, init?: RequestInit) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return new URL(href).hostname === host ? own(input, init) : open(input, init);
  }) as typeof fetch);
}
