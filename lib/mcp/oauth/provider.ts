import 'server-only';
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type AuthorizationContext,
  beginAuthorization,
  type FlowMode,
  finishAuthorization,
} from '@/lib/mcp/oauth/authorization';
import {
  clientAuthenticationFor,
  clientMetadataFor,
  clientMetadataUrlFor,
} from '@/lib/mcp/oauth/client-identity';
import { type OAuthProviderOptions, ProviderOptionsSchema } from '@/lib/mcp/oauth/options';
import { type InvalidateScope, ProviderRecords } from '@/lib/mcp/oauth/records';
import { refreshingFetch } from '@/lib/mcp/oauth/refreshing-fetch';
import { singleFlightRefresh } from '@/lib/mcp/oauth/refresh-lock';
import {
  expiresSoon,
  grantTokenRequest,
  refreshStoredTokens,
  type TokenContext,
} from '@/lib/mcp/oauth/token-requests';

/**
 * The OAuth provider itself: McpOAuthProvider (the SDK's OAuthClientProvider for one user and
 * server, plus the app's begin/finish/forget calls and the transport's 401-refreshing fetch),
 * createOAuthProvider that checks its options, and withOAuthRefresh for the remote transports. The
 * class is the one entry point; its parts live in the sibling modules: the persisted state
 * (records.ts, shapes in stored-state.ts), client identity (client-identity.ts), token refresh and
 * grant requests (token-requests.ts), the begin/finish flow (authorization.ts), the transport's fetch
 * (refreshing-fetch.ts), plus options, refresh lock and redaction. lib/mcp/oauth/index.ts is what the
 * rest of the app imports.
 */

/**
 * The SDK's OAuthClientProvider for one (user, server). The SDK's auth() does discovery, client
 * registration, PKCE, `resource` and the token requests; this class stores what it is given, hands
 * out URLs instead of redirecting, and adds state validation, single-flight refresh and redaction.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl?: string;
  readonly addClientAuthentication?: OAuthClientProvider['addClientAuthentication'];
  private readonly serverUrl: URL;
  private readonly fetchFn: FetchLike;
  private readonly records: ProviderRecords;
  private verifier: string | undefined;
  private startedState: string | undefined;
  private startedUrl: URL | undefined;

  constructor(
    private readonly opts: OAuthProviderOptions,
    private readonly mode: FlowMode = { kind: 'background' },
  ) {
    this.serverUrl = new URL(opts.serverUrl);
    this.fetchFn = opts.fetch ?? fetch;
    this.records = new ProviderRecords(opts);
    this.clientMetadataUrl = clientMetadataUrlFor(opts);
    if (mode.kind === 'finish') this.verifier = mode.verifier;
    const addClientAuthentication = clientAuthenticationFor(opts);
    if (addClientAuthentication) this.addClientAuthentication = addClientAuthentication;
  }

  // ── OAuthClientProvider ───────────────────────────────────────────────────────────────────────

  get redirectUrl(): string | undefined {
    return this.opts.grant ? undefined : this.opts.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadataFor(this.opts);
  }

  state(): string {
    this.startedState = randomBytes(32).toString('base64url');
    return this.startedState;
  }

  clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return this.records.clientInformation();
  }

  saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    return this.records.saveClientInformation(info);
  }

  /**
   * The stored tokens — refreshed first (single-flight) when the access token has less than the
   * skew left. An expired token without a way to refresh reads as none, so the server's 401 starts auth.
   */
  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.mode.kind === 'begin') return undefined;
    const stored = await this.records.readTokens();
    if (!stored) return undefined;
    if (!expiresSoon(stored, this.opts.refreshSkewMs)) return stored.tokens;
    const usable = stored.expiresAt === undefined || stored.expiresAt > Date.now();
    if (!stored.tokens.refresh_token) return usable ? stored.tokens : undefined;
    const fresh = await this.refresh().catch(() => undefined);
    return fresh ?? (usable ? stored.tokens : undefined);
  }

  saveTokens(tokens: OAuthTokens): Promise<void> {
    return this.records.saveTokens(tokens);
  }

  /** Never opens anything: the URL is kept for beginAuthorization to hand to the browser. */
  redirectToAuthorization(authorizationUrl: URL): void {
    this.startedUrl = authorizationUrl;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    // Only an authorization the user asked for is recorded: a background reconnect must not replace it.
    if (this.mode.kind !== 'begin') return;
    if (!this.startedState) throw new Error('An authorization was started without a state.');
    await this.records.savePending({
      state: this.startedState,
      verifier: codeVerifier,
      createdAt: Date.now(),
    });
  }

  codeVerifier(): string {
    const verifier = this.verifier;
    this.verifier = undefined; // one use
    if (!verifier) throw new Error('No PKCE code verifier is available for this authorization.');
    return verifier;
  }

  invalidateCredentials(scope: InvalidateScope): Promise<void> {
    return this.records.invalidate(scope);
  }

  prepareTokenRequest(scope?: string): URLSearchParams | Promise<URLSearchParams> | undefined {
    const grant = this.opts.grant;
    if (!grant) return undefined; // the SDK's authorization code request
    return grantTokenRequest(this.tokenContext(), grant, scope);
  }

  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    return this.records.saveDiscoveryState(state);
  }

  discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.records.discoveryState();
  }

  // ── What the app calls ───────────────────────────────────────────────────────────────────────

  /** See authorization.ts: the URL for the browser and its state, or tokens from a non-interactive grant. */
  beginAuthorization(): Promise<{ url: string; state: string } | { authorized: true }> {
    return beginAuthorization(this.authorizationContext());
  }

  /** See authorization.ts: checks `state` against the pending authorization and exchanges `code`. */
  finishAuthorization(code: string, state: string): Promise<void> {
    return finishAuthorization(this.authorizationContext(), code, state);
  }

  /** The authorization this provider's auth() started (its URL and state), if any. */
  startedAuthorization(): { url: URL; state: string } | undefined {
    return this.startedUrl && this.startedState
      ? { url: this.startedUrl, state: this.startedState }
      : undefined;
  }

  /** Whether there are tokens that can be used now or refreshed. */
  async hasTokens(): Promise<boolean> {
    const stored = await this.records.readTokens();
    if (!stored) return false;
    return !!stored.tokens.refresh_token || stored.expiresAt === undefined || stored.expiresAt > Date.now();
  }

  /** Forgets this user's tokens and authorization state for the server (DELETE …/connections/[server]). */
  forget(): Promise<void> {
    return this.records.forget();
  }

  /** The transport's fetch (refreshing-fetch.ts): challenges remembered, a 401 answered by one refresh. */
  wrapFetch(inner: FetchLike): FetchLike {
    return refreshingFetch(inner, {
      saveChallenge: (challenge) => this.records.saveChallenge(challenge),
      refresh: (rejected) => this.refresh(rejected),
    });
  }

  // ── Internals ────────────────────────────────────────────────────────────────────────────────

  /**
   * Refreshes the access token, one refresh at a time per lockKey: single-flight in this process, and
   * under the shared lock across processes when there is one (token-requests.ts).
   */
  private refresh(rejected?: string): Promise<OAuthTokens | undefined> {
    const run = () =>
      refreshStoredTokens(
        {
          ...this.tokenContext(),
          skewMs: this.opts.refreshSkewMs,
          addClientAuthentication: this.addClientAuthentication,
        },
        rejected,
      );
    const { lockKey, sharedLock } = this.opts;
    return singleFlightRefresh(lockKey, sharedLock ? () => sharedLock(lockKey, run) : run);
  }

  private tokenContext(): TokenContext {
    return { provider: this, records: this.records, serverUrl: this.serverUrl, fetchFn: this.fetchFn };
  }

  private authorizationContext(): AuthorizationContext {
    return {
      records: this.records,
      serverUrl: this.serverUrl,
      fetchFn: this.fetchFn,
      pendingTtlMs: this.opts.pendingTtlMs,
      flow: (mode) => new McpOAuthProvider(this.opts, mode),
    };
  }
}

/** Builds the provider for one (user, server) after checking its options. */
export function createOAuthProvider(opts: OAuthProviderOptions): McpOAuthProvider {
  const checked = ProviderOptionsSchema.safeParse(opts);
  if (!checked.success)
    throw new Error(
      `Invalid OAuth provider options: ${checked.error.issues.map((i) => i.message).join('; ')}`,
    );
  return new McpOAuthProvider(opts);
}

/**
 * The fetch a remote MCP transport should use: with an McpOAuthProvider, 401s are answered by one
 * shared refresh and a retry, and challenges are remembered; otherwise `inner` unchanged.
 */
export function withOAuthRefresh(inner: FetchLike, provider: OAuthClientProvider | undefined): FetchLike {
  return provider instanceof McpOAuthProvider ? provider.wrapFetch(inner) : inner;
}
