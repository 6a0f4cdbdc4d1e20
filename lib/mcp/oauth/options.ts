import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import * as z from '@/lib/zod';
import type { KeyValueStore } from '@/lib/mcp/oauth/store';

/**
 * What the app gives createOAuthProvider for one (user, server): the server, the stores, the
 * callback and metadata URLs, the admin's client identity or a non-interactive grant, and timing;
 * the schema createOAuthProvider checks them with, and their defaults. Also OAuthFlowError, the one
 * error the app's authorize and callback routes are shown.
 */

/** The admin's client identity for a server (config `oauth`); without `clientId` the client finds its own. */
export type OAuthClientConfig = { clientId?: string; clientSecret?: string; scopes?: string[] };

/** What a jwt-bearer assertion callback learns about the authorization server it is for. */
export type AssertionContext = {
  authorizationServerUrl: string;
  /** The authorization server metadata's `issuer` (the audience an ID-JAG is minted for). */
  issuer: string;
  /** The RFC 8707 resource indicator of the MCP server. */
  resource: string;
};

/**
 * A grant that needs no user (SEP-1046 / SEP-990 extensions). Without one the provider runs the
 * interactive authorization code flow.
 */
export type NonInteractiveGrant =
  | {
      type: 'client_credentials';
      /** private_key_jwt client authentication instead of the client secret. */
      privateKey?: { pem: string; algorithm: string };
    }
  | { type: 'jwt_bearer'; assertion: (ctx: AssertionContext) => Promise<string> };

export type OAuthProviderOptions = {
  /** The MCP server's URL (the protected resource). */
  serverUrl: string | URL;
  /** State of ONE (user, server) pair. */
  store: KeyValueStore;
  /** Dynamically registered clients, keyed by authorization server issuer; shared by all users. */
  clientStore: KeyValueStore;
  /** Names the (user, server) pair for single-flight refresh, e.g. `${userId}\n${serverName}`. */
  lockKey: string;
  /**
   * With more than one process on the same stored tokens: runs a refresh while holding `lockKey` in
   * every one of them, so two processes never present the same refresh token (the app's is a Redis
   * lock). Within one process refreshes are single-flight without it.
   */
  sharedLock?: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
  /** The app's callback, e.g. `<origin>/api/mcp/oauth/callback`. */
  redirectUrl: string;
  /** `<origin>/oauth/client-metadata.json`; used only over https (a CIMD client id must be one). */
  clientMetadataUrl?: string;
  config?: OAuthClientConfig;
  grant?: NonInteractiveGrant;
  clientName?: string;
  /** For discovery, registration and token requests the provider makes itself (pass guardedFetch). */
  fetch?: FetchLike;
  /** Refresh when the access token has less than this left (default 60 s). */
  refreshSkewMs?: number;
  /** How long a started authorization may take before its callback is refused (default 10 min). */
  pendingTtlMs?: number;
};

/** Why an authorization could not start or finish. Its message never holds a token, code or secret. */
export class OAuthFlowError extends Error {
  constructor(
    readonly code: 'no-pending' | 'state-mismatch' | 'expired' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'OAuthFlowError';
  }
}

export const DEFAULT_SKEW_MS = 60_000;
export const DEFAULT_PENDING_TTL_MS = 10 * 60_000;

export const ProviderOptionsSchema = z.object({
  serverUrl: z.union([z.string(), z.instanceof(URL)]).refine((v) => /^https?:$/.test(new URL(v).protocol), {
    message: 'serverUrl must be an http(s) URL',
  }),
  lockKey: z.string().min(1),
  redirectUrl: z.url({ protocol: /^https?$/ }),
  clientMetadataUrl: z.url().optional(),
  refreshSkewMs: z.number().int().min(0).optional(),
  pendingTtlMs: z.number().int().positive().optional(),
});
