import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthProviderOptions } from '@/lib/mcp/oauth/options';

/**
 * Who McpOAuthProvider is to an authorization server, from its options: the metadata it registers
 * with (authorization code, or the non-interactive grant's type), the Client ID Metadata Document
 * URL it may use as its client id, and private_key_jwt client authentication for client_credentials.
 */

/** A Client ID Metadata Document id must be an https URL with a path; the admin's client id wins. */
export function clientMetadataUrlFor(opts: OAuthProviderOptions): string | undefined {
  return !opts.config?.clientId &&
    opts.clientMetadataUrl &&
    /^https:\/\/[^/]+\/./.test(opts.clientMetadataUrl)
    ? opts.clientMetadataUrl
    : undefined;
}

/** private_key_jwt client authentication, for a client_credentials grant with a key and a client id. */
export function clientAuthenticationFor(
  opts: OAuthProviderOptions,
): OAuthClientProvider['addClientAuthentication'] {
  const grant = opts.grant;
  if (grant?.type === 'client_credentials' && grant.privateKey && opts.config?.clientId)
    return createPrivateKeyJwtAuth({
      issuer: opts.config.clientId,
      subject: opts.config.clientId,
      privateKey: grant.privateKey.pem,
      alg: grant.privateKey.algorithm,
    });
  return undefined;
}

/** The client metadata for dynamic registration. */
export function clientMetadataFor(opts: OAuthProviderOptions): OAuthClientMetadata {
  const scope = opts.config?.scopes?.join(' ') || undefined;
  const client_name = opts.clientName ?? 'MCP chat host';
  if (opts.grant)
    return {
      client_name,
      redirect_uris: [],
      grant_types: [
        opts.grant.type === 'client_credentials'
          ? 'client_credentials'
          : 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      ],
      ...(scope && { scope }),
    };
  return {
    client_name,
    redirect_uris: [opts.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...(scope && { scope }),
  };
}
