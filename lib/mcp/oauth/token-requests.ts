import {
  discoverOAuthServerInfo,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  refreshAuthorization,
  selectResourceURL,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { sameUrl } from '@/lib/mcp/oauth/compare';
import { DEFAULT_SKEW_MS, type NonInteractiveGrant, OAuthFlowError } from '@/lib/mcp/oauth/options';
import type { ProviderRecords } from '@/lib/mcp/oauth/records';
import { redactedMessage } from '@/lib/mcp/oauth/redact';
import type { StoredTokens } from '@/lib/mcp/oauth/stored-state';

/**
 * The token requests McpOAuthProvider makes or shapes itself (the SDK's auth() makes the rest): the
 * refresh of stored tokens and the token request parameters of a non-interactive grant, with the
 * RFC 8707 `resource` both send.
 */

/** What a token request needs to know about the provider it is made for. */
export type TokenContext = {
  /** The provider itself, for the SDK's resource URL check. */
  provider: OAuthClientProvider;
  records: ProviderRecords;
  serverUrl: URL;
  fetchFn: FetchLike;
};

/** Whether the access token has less than `skewMs` (default 60 s) left. */
export function expiresSoon(stored: StoredTokens, skewMs: number | undefined): boolean {
  return stored.expiresAt !== undefined && stored.expiresAt - Date.now() < (skewMs ?? DEFAULT_SKEW_MS);
}

/** The `resource` the SDK's auth() sends: the metadata's string as written, checked against the server. */
export async function resourceFor(
  ctx: TokenContext,
  discovery: OAuthDiscoveryState,
): Promise<string | URL | undefined> {
  const selected = await selectResourceURL(ctx.serverUrl, ctx.provider, discovery.resourceMetadata);
  return selected && discovery.resourceMetadata ? discovery.resourceMetadata.resource : selected;
}

/**
 * The token request of a non-interactive grant (the SDK's prepareTokenRequest): client_credentials,
 * or a jwt-bearer assertion minted for the authorization server discovered.
 */
export function grantTokenRequest(
  ctx: TokenContext,
  grant: NonInteractiveGrant,
  scope: string | undefined,
): URLSearchParams | Promise<URLSearchParams> {
  if (grant.type === 'client_credentials') {
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) params.set('scope', scope);
    return params;
  }
  return (async () => {
    const discovery = await ctx.records.discoveryState();
    if (!discovery) throw new Error('The authorization server is not known yet.');
    const resource = (await resourceFor(ctx, discovery)) ?? ctx.serverUrl.href;
    const assertion = await grant.assertion({
      authorizationServerUrl: discovery.authorizationServerUrl,
      issuer: discovery.authorizationServerMetadata?.issuer ?? discovery.authorizationServerUrl,
      resource: String(resource),
    });
    const params = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion,
    });
    if (scope) params.set('scope', scope);
    return params;
  })();
}

/**
 * One refresh of the stored tokens (run under the single-flight lock by the provider). `rejected` is
 * the token a server refused; if the stored one differs, another caller already refreshed and that
 * one is returned. Resolves undefined when there is nothing to refresh with or the refresh token was
 * refused (then the tokens are dropped, unless another process stored new ones meanwhile).
 */
export async function refreshStoredTokens(
  ctx: TokenContext & {
    skewMs: number | undefined;
    addClientAuthentication: OAuthClientProvider['addClientAuthentication'];
  },
  rejected: string | undefined,
): Promise<OAuthTokens | undefined> {
  const { records } = ctx;
  const stored = await records.readTokens();
  if (!stored) return undefined;
  const current =
    rejected === undefined ? !expiresSoon(stored, ctx.skewMs) : stored.tokens.access_token !== rejected;
  if (current) return stored.tokens;
  const refreshToken = stored.tokens.refresh_token;
  if (!refreshToken) return undefined;
  let discovery = await records.discoveryState();
  if (!discovery) {
    discovery = await discoverOAuthServerInfo(ctx.serverUrl, { fetchFn: ctx.fetchFn });
    await records.saveDiscoveryState(discovery);
  }
  const issuer = discovery.authorizationServerUrl;
  // Never present a refresh token or client to an authorization server they were not issued by.
  if (stored.tokens.issuer && !sameUrl(stored.tokens.issuer, issuer)) return undefined;
  const client = await records.clientInformation();
  if (!client || (client.issuer && !sameUrl(client.issuer, issuer))) return undefined;
  try {
    const next = await refreshAuthorization(issuer, {
      metadata: discovery.authorizationServerMetadata,
      clientInformation: client,
      refreshToken,
      resource: await resourceFor(ctx, discovery),
      addClientAuthentication: ctx.addClientAuthentication,
      fetchFn: ctx.fetchFn,
    });
    const tokens = { ...next, issuer };
    await records.saveTokens(tokens);
    return tokens;
  } catch (err) {
    if (err instanceof InvalidGrantError) {
      // Another process may have refreshed with this token meanwhile (it was then used up): its tokens
      // are the user's now. Only a refresh token still stored as refused is dropped.
      const now = await records.readTokens();
      if (now && now.tokens.refresh_token !== refreshToken) return now.tokens;
      await records.dropTokens();
      return undefined;
    }
    throw new OAuthFlowError(
      'failed',
      `Token refresh failed: ${redactedMessage(err, [refreshToken, stored.tokens.access_token, client.client_secret])}`,
    );
  }
}
