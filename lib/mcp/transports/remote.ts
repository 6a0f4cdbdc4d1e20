import 'server-only';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { withOAuthRefresh } from '@/lib/mcp/oauth';
import { abortOnCancel } from '@/lib/mcp/transports/abort-on-cancel';
import { serverFetch } from '@/lib/net/guarded-fetch';
import type { RemoteConfig } from '@/lib/schemas/mcp';

/** Streamable HTTP with the admin's headers; public addresses only (unless allowed); redirects only within the same origin (guardedFetch). */
export function createStreamableHttpTransport(
  config: RemoteConfig,
  authProvider?: OAuthClientProvider,
): Transport {
  return new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: config.headers },
    // A request that timed out or was stopped no longer holds its POST's response open (abortOnCancel).
    fetch: abortOnCancel(withOAuthRefresh(serverFetch(config.url, config.allowPrivateNetwork), authProvider)),
    authProvider,
  });
}

/** Legacy HTTP+SSE (GET /sse, POST to the announced endpoint). */
export function createSseTransport(config: RemoteConfig, authProvider?: OAuthClientProvider): Transport {
  return new SSEClientTransport(new URL(config.url), {
    requestInit: { headers: config.headers },
    fetch: withOAuthRefresh(serverFetch(config.url, config.allowPrivateNetwork), authProvider),
    authProvider,
  });
}

/**
 * The spec's backwards-compatibility rule: a server that answers the Streamable HTTP initialize POST
 * with 400, 404 or 405 may be an old HTTP+SSE server, so the client tries SSE at the same URL.
 */
export function shouldFallBackToSse(err: unknown): boolean {
  return err instanceof StreamableHTTPError && [400, 404, 405].includes(err.code ?? 0);
}
