import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Challenge } from '@/lib/mcp/oauth/stored-state';

/**
 * The fetch McpOAuthProvider gives a remote MCP transport: it remembers each 401/403 challenge
 * (scope, resource_metadata) for beginAuthorization, and answers a 401 to a request that carried our
 * access token with ONE refresh (shared with every concurrent caller) and a retry with the new token.
 */

/** Bearer token a request carried, if any. */
function bearerOf(init: RequestInit | undefined): string | undefined {
  const value = new Headers(init?.headers).get('authorization');
  return value?.toLowerCase().startsWith('bearer ') ? value.slice(7).trim() : undefined;
}

/** The challenge worth remembering in a 401, or a 403 insufficient_scope; otherwise undefined. */
function challengeOf(res: Response): Challenge | undefined {
  const { scope, resourceMetadataUrl, error } = extractWWWAuthenticateParams(res);
  if (res.status === 403 && error !== 'insufficient_scope') return undefined;
  if (!scope && !resourceMetadataUrl) return undefined;
  return { scope, resourceMetadataUrl: resourceMetadataUrl?.href };
}

export function refreshingFetch(
  inner: FetchLike,
  hooks: {
    saveChallenge: (challenge: Challenge) => Promise<void>;
    /** The single-flight refresh of a rejected access token. */
    refresh: (rejected: string) => Promise<OAuthTokens | undefined>;
  },
): FetchLike {
  return async (url, init) => {
    const res = await inner(url, init);
    if (res.status !== 401 && res.status !== 403) return res;
    const challenge = challengeOf(res);
    if (challenge) await hooks.saveChallenge(challenge);
    const sent = bearerOf(init);
    if (res.status !== 401 || !sent) return res;
    const fresh = await hooks.refresh(sent).catch(() => undefined);
    if (!fresh || fresh.access_token === sent) return res;
    await res.body?.cancel().catch(() => {});
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${fresh.access_token}`);
    return inner(url, { ...init, headers });
  };
}
