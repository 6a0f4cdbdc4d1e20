import 'server-only';
import { type LookupAddress, lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { isPrivateAddress } from '@/lib/net/private-address';

export class BlockedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private or local address. Tick "private network" on this server to allow it.`);
    this.name = 'BlockedAddressError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that refuses private, loopback and link-local results — checked at connect time, so a rebinding DNS name gains nothing. */
function publicOnlyLookup(hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void {
  dnsLookup(hostname, { family: options.family ?? 0, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new BlockedAddressError(hostname, bad.address), []);
    const first = addresses[0];
    if (options.all || !first) return callback(null, addresses);
    callback(null, first.address, first.family);
  });
}

const g = globalThis as unknown as { __publicAgent?: Agent };

/**
 * The fetch remote MCP transports use. Unless the admin marked the server as being on a private
 * network, requests may only reach public addresses: literal IPs are checked before the request,
 * names when they are resolved for the connection (redirects included).
 */
export function guardedFetch(allowPrivateNetwork: boolean): typeof fetch {
  if (allowPrivateNetwork) return fetch;
  g.__publicAgent ??= new Agent({ connect: { lookup: publicOnlyLookup as never } });
  const agent = g.__publicAgent;
  return ((input: string | URL | Request, init?: RequestInit) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const host = new URL(href).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && isPrivateAddress(host)) return Promise.reject(new BlockedAddressError(host, host));
    return undiciFetch(href, { ...(init as object), dispatcher: agent } as never);
  }) as typeof fetch;
}
