import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * The app's OAuth Client ID Metadata Document (CIMD): where the authorization server supports it,
 * the URL of this document is the client id, so no registration is needed. It is public, so it
 * describes a public client (token_endpoint_auth_method 'none').
 */

const CIMD_AUTH_METHOD = 'none';

/**
 * The Client ID Metadata Document the app serves at `clientMetadataUrl` (GET /oauth/client-metadata.json):
 * a public client (no secret can be shared through a public document) using the authorization code grant.
 */
export function clientMetadataDocument(opts: {
  clientMetadataUrl: string;
  redirectUrl: string;
  clientName?: string;
}): OAuthClientMetadata & { client_id: string } {
  return {
    client_id: opts.clientMetadataUrl,
    client_name: opts.clientName ?? 'MCP chat host',
    redirect_uris: [opts.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: CIMD_AUTH_METHOD,
  };
}
