/**
 * OAuth 2.1 client side of the MCP authorization spec (2025-11-25), on the SDK's auth().
 *
 * One provider per (user, server):
 *
 *   const provider = createOAuthProvider({
 *     serverUrl: config.url,
 *     store,          // KeyValueStore over mcp_user_secrets (userId, serverId, kind 'oauth'), sealed
 *     clientStore,    // KeyValueStore over mcp_oauth_clients (key = authorization server issuer), sealed
 *     lockKey: `${userId}\n${serverId}`,          // one refresh at a time per (user, server)
 *     redirectUrl: `${origin}/api/mcp/oauth/callback`,
 *     clientMetadataUrl: `${origin}/oauth/client-metadata.json`,   // used only when https
 *     config: config.oauth,                        // { clientId?, clientSecret?, scopes? }
 *     fetch: guardedFetch(config.allowPrivateNetwork),
 *   });
 *
 * - Connection: give it to McpConnection as `authProvider` (ConnectionOptions). The transport sends
 *   its access token (refreshed when < 60 s are left), answers a 401 with one shared refresh and a
 *   retry, remembers each challenge's scope / resource_metadata, and — when the user must sign in, or
 *   a 403 insufficient_scope asks for more — fails with the SDK's UnauthorizedError (McpFailure kind
 *   'auth'): show the server as "needs-auth". Nothing is opened or persisted for such a failure.
 * - POST /api/mcp/connections/[server]/authorize: `await provider.beginAuthorization()` →
 *   `{ url, state }` (answer `{ url }`; remember that `state` belongs to this user and server, e.g. in a
 *   short-lived cookie, so the callback can find the provider) or `{ authorized: true }` (a
 *   non-interactive grant got tokens). Client identity: config.clientId, else the metadata document
 *   when the authorization server supports it, else dynamic registration (kept in clientStore).
 * - GET /api/mcp/oauth/callback?code&state: `await provider.finishAuthorization(code, state)`; throws
 *   OAuthFlowError (`code`: 'no-pending' | 'state-mismatch' | 'expired' | 'failed'); messages never
 *   hold tokens, codes or secrets. Then reconnect the user's connection (its backoff may still run).
 * - DELETE /api/mcp/connections/[server]: `await provider.forget()`, then close the connection.
 * - `await provider.hasTokens()` for the connection list's status.
 * - GET /oauth/client-metadata.json: `clientMetadataDocument({ clientMetadataUrl, redirectUrl })`.
 */
export { clientMetadataDocument } from '@/lib/mcp/oauth/client-metadata';
export {
  type AssertionContext,
  type NonInteractiveGrant,
  type OAuthClientConfig,
  OAuthFlowError,
  type OAuthProviderOptions,
} from '@/lib/mcp/oauth/options';
export { createOAuthProvider, McpOAuthProvider, withOAuthRefresh } from '@/lib/mcp/oauth/provider';
export { redactedMessage } from '@/lib/mcp/oauth/redact';
export { type KeyValueStore, MemoryStore } from '@/lib/mcp/oauth/store';
