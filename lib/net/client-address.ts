import 'server-only';
import http from 'node:http';

/**
 * The header that carries each request's socket address. It is stamped by the HTTP server itself
 * (`stampSocketAddresses`), replacing anything a client sent under that name, so no client can choose it.
 */
export const SOCKET_ADDRESS_HEADER = 'x-mcp-chat-socket-address';

/**
 * The client's address, for rate limits and sign-in back-off: the socket's address, or with
 * `TRUST_PROXY=1` the last `X-Forwarded-For` entry (the one our reverse proxy appended). Without a
 * trusted proxy `X-Forwarded-For` is the client's own word and is ignored.
 */
export function clientAddress(headers: Headers, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return headers.get(SOCKET_ADDRESS_HEADER) || 'unknown';
}

type Stamped = { emit: http.Server['emit']; __socketAddressStamped?: true };

/**
 * Next.js gives route handlers and the proxy no socket address (it only fills in X-Forwarded-For when
 * the client did not send one). So every `request` event of Node's HTTP server gets the socket's
 * address written into SOCKET_ADDRESS_HEADER before Next sees it. Idempotent; run once at start.
 */
export function stampSocketAddresses(): void {
  const proto = http.Server.prototype as unknown as Stamped;
  if (proto.__socketAddressStamped) return;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const req = args[0] as http.IncomingMessage;
      req.headers[SOCKET_ADDRESS_HEADER] = req.socket?.remoteAddress ?? '';
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as http.Server['emit'];
  proto.__socketAddressStamped = true;
}
