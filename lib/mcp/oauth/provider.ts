import 'server-only';
import { randomBytes } from 'node:crypto';
import {
  auth,
  discoverOAuthServerInfo,
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  refreshAuthorization,
  selectResourceURL,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { safeEqual, sameUrl } from '@/lib/mcp/oauth/compare';
import {
  DEFAULT_PENDING_TTL_MS,
  DEFAULT_SKEW_MS,
  OAuthFlowError,
  type OAuthProviderOptions,
  ProviderOptionsSchema,
} from '@/lib/mcp/oauth/options';
import { redactedMessage } from '@/lib/mcp/oauth/redact';
import { singleFlightRefresh } from '@/lib/mcp/oauth/refresh-lock';
import type { KeyValueStore } from '@/lib/mcp/oauth/store';
import {
  type Challenge,
  ChallengeSchema,
  ClientInfoSchema,
  DiscoverySchema,
  type Pending,
  PendingSchema,
  readJson,
  type StoredTokens,
  StoredTokensSchema,
} from '@/lib/mcp/oauth/stored-state';

/**
 * The OAuth provider itself: McpOAuthProvider (the SDK's OAuthClientProvider for one user and
 * server, plus the app's begin/finish/forget calls and the transport's 401-refreshing fetch),
 * createOAuthProvider that checks its options, and withOAuthRefresh for the remote transports. Its
 * options, stored state, refresh lock, redaction and client metadata document live in the sibling
 * modules; lib/mcp/oauth/index.ts is what the rest of the app imports.
 */

/** Bearer token a request carried, if any. */
function bearerOf(init: RequestInit | undefined): string | undefined {
  const value = new Headers(init?.headers).get('authorization');
  return value?.toLowerCase().startsWith('bearer ') ? value.slice(7).trim() : undefined;
}

type Mode =
  /** Used by the transport: never persists a started authorization (only beginAuthorization does). */
  | { kind: 'background' }
  /** beginAuthorization: hides stored tokens so the SDK starts a fresh authorization. */
  | { kind: 'begin' }
  /** finishAuthorization: holds the PKCE verifier the pending record carried, for one use. */
  | { kind: 'finish'; verifier: string };

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
  private verifier: string | undefined;
  private startedState: string | undefined;
  private startedUrl: URL | undefined;
  private discovery: OAuthDiscoveryState | undefined;

  constructor(
    private readonly opts: OAuthProviderOptions,
    private readonly mode: Mode = { kind: 'background' },
  ) {
    this.serverUrl = new URL(opts.serverUrl);
    this.fetchFn = opts.fetch ?? fetch;
    // A Client ID Metadata Document id must be an https URL with a path; the admin's client id wins.
    this.clientMetadataUrl =
      !opts.config?.clientId && opts.clientMetadataUrl && /^https:\/\/[^/]+\/./.test(opts.clientMetadataUrl)
        ? opts.clientMetadataUrl
        : undefined;
    if (mode.kind === 'finish') this.verifier = mode.verifier;
    const grant = opts.grant;
    if (grant?.type === 'client_credentials' && grant.privateKey && opts.config?.clientId)
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: opts.config.clientId,
        subject: opts.config.clientId,
        privateKey: grant.privateKey.pem,
        alg: grant.privateKey.algorithm,
      });
  }

  private get store(): KeyValueStore {
    return this.opts.store;
  }

  // ── OAuthClientProvider ───────────────────────────────────────────────────────────────────────

  get redirectUrl(): string | undefined {
    return this.opts.grant ? undefined : this.opts.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.opts.config?.scopes?.join(' ') || undefined;
    const client_name = this.opts.clientName ?? 'MCP chat host';
    if (this.opts.grant)
      return {
        client_name,
        redirect_uris: [],
        grant_types: [
          this.opts.grant.type === 'client_credentials'
            ? 'client_credentials'
            : 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        ],
        ...(scope && { scope }),
      };
    return {
      client_name,
      redirect_uris: [this.opts.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(scope && { scope }),
    };
  }

  state(): string {
    this.startedState = randomBytes(32).toString('base64url');
    return this.startedState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const config = this.opts.config;
    if (config?.clientId) {
      const issuer = await this.store.get('client-issuer');
      return {
        client_id: config.clientId,
        ...(config.clientSecret && { client_secret: config.clientSecret }),
        ...(issuer && { issuer }),
      };
    }
    const as = (await this.discoveryState())?.authorizationServerUrl;
    return as ? readJson(this.opts.clientStore, as, ClientInfoSchema) : undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    if (this.opts.config?.clientId) {
      // The SDK binds pre-registered credentials to the first authorization server that accepts them.
      if (info.issuer) await this.store.set('client-issuer', info.issuer);
      return;
    }
    const key = info.issuer ?? (await this.discoveryState())?.authorizationServerUrl;
    if (!key) throw new Error('Cannot store a client without knowing its authorization server.');
    await this.opts.clientStore.set(key, JSON.stringify(info));
  }

  /**
   * The stored tokens — refreshed first (single-flight) when the access token has less than the
   * skew left. An expired token without a way to refresh reads as none, so the server's 401 starts auth.
   */
  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.mode.kind === 'begin') return undefined;
    const stored = await this.readTokens();
    if (!stored) return undefined;
    if (!this.expiresSoon(stored)) return stored.tokens;
    const usable = stored.expiresAt === undefined || stored.expiresAt > Date.now();
    if (!stored.tokens.refresh_token) return usable ? stored.tokens : undefined;
    const fresh = await this.refresh().catch(() => undefined);
    return fresh ?? (usable ? stored.tokens : undefined);
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const value: StoredTokens = {
      tokens,
      ...(tokens.expires_in !== undefined && { expiresAt: Date.now() + tokens.expires_in * 1000 }),
    };
    await this.store.set('tokens', JSON.stringify(value));
  }

  /** Never opens anything: the URL is kept for beginAuthorization to hand to the browser. */
  redirectToAuthorization(authorizationUrl: URL): void {
    this.startedUrl = authorizationUrl;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    // Only an authorization the user asked for is recorded: a background reconnect must not replace it.
    if (this.mode.kind !== 'begin') return;
    if (!this.startedState) throw new Error('An authorization was started without a state.');
    const pending: Pending = { state: this.startedState, verifier: codeVerifier, createdAt: Date.now() };
    await this.store.set('pending', JSON.stringify(pending));
  }

  codeVerifier(): string {
    const verifier = this.verifier;
    this.verifier = undefined; // one use
    if (!verifier) throw new Error('No PKCE code verifier is available for this authorization.');
    return verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'client') {
      const as = (await this.discoveryState())?.authorizationServerUrl;
      if (this.opts.config?.clientId) await this.store.delete('client-issuer');
      else if (as) await this.opts.clientStore.delete(as);
    }
    if (scope === 'all' || scope === 'tokens') await this.store.delete('tokens');
    if (scope === 'all' || scope === 'verifier') await this.store.delete('pending');
    if (scope === 'all' || scope === 'discovery') {
      this.discovery = undefined;
      await this.store.delete('discovery');
    }
  }

  prepareTokenRequest(scope?: string): URLSearchParams | Promise<URLSearchParams> | undefined {
    const grant = this.opts.grant;
    if (!grant) return undefined; // the SDK's authorization code request
    if (grant.type === 'client_credentials') {
      const params = new URLSearchParams({ grant_type: 'client_credentials' });
      if (scope) params.set('scope', scope);
      return params;
    }
    return (async () => {
      const discovery = await this.discoveryState();
      if (!discovery) throw new Error('The authorization server is not known yet.');
      const resource = (await this.resourceFor(discovery)) ?? this.serverUrl.href;
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

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.discovery = state;
    await this.store.set('discovery', JSON.stringify(state));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    this.discovery ??= await readJson(this.store, 'discovery', DiscoverySchema);
    return this.discovery;
  }

  // ── What the app calls ───────────────────────────────────────────────────────────────────────

  /**
   * Starts an authorization the user asked for (POST …/authorize): discovery from the last challenge
   * (scope, resource_metadata), client identity, PKCE, state, resource. Returns the URL for the browser
   * and its state; with a non-interactive grant the tokens are fetched at once instead.
   */
  async beginAuthorization(): Promise<{ url: string; state: string } | { authorized: true }> {
    const challenge = await readJson(this.store, 'challenge', ChallengeSchema);
    // Discovery is redone: the server's last answer, not an old cache, names the authorization server.
    await this.invalidateCredentials('discovery');
    const flow = new McpOAuthProvider(this.opts, { kind: 'begin' });
    try {
      const result = await auth(flow, {
        serverUrl: this.serverUrl,
        scope: challenge?.scope,
        resourceMetadataUrl: urlOrUndefined(challenge?.resourceMetadataUrl),
        fetchFn: this.fetchFn,
      });
      if (result === 'AUTHORIZED') return { authorized: true };
    } catch (err) {
      throw new OAuthFlowError(
        'failed',
        `Could not start authorization: ${redactedMessage(err, await this.secrets())}`,
      );
    }
    if (!flow.startedUrl || !flow.startedState)
      throw new OAuthFlowError('failed', 'Could not start authorization: no authorization URL was made.');
    return { url: flow.startedUrl.href, state: flow.startedState };
  }

  /**
   * Finishes with the callback's `code` and `state`: the state must match the pending authorization
   * (else nothing changes); the pending record (and its PKCE verifier) is consumed either way after
   * that, and the code is exchanged for tokens.
   */
  async finishAuthorization(code: string, state: string): Promise<void> {
    const pending = await readJson(this.store, 'pending', PendingSchema);
    if (!pending) throw new OAuthFlowError('no-pending', 'No authorization is in progress for this server.');
    // A wrong state (a forged or stale callback) leaves the user's pending authorization in place.
    if (!safeEqual(pending.state, state))
      throw new OAuthFlowError('state-mismatch', 'The authorization response does not match the request.');
    await this.store.delete('pending');
    if (Date.now() - pending.createdAt > (this.opts.pendingTtlMs ?? DEFAULT_PENDING_TTL_MS))
      throw new OAuthFlowError('expired', 'The authorization took too long; start it again.');
    const flow = new McpOAuthProvider(this.opts, { kind: 'finish', verifier: pending.verifier });
    try {
      const result = await auth(flow, {
        serverUrl: this.serverUrl,
        authorizationCode: code,
        fetchFn: this.fetchFn,
      });
      if (result !== 'AUTHORIZED') throw new Error('the authorization server did not issue tokens');
    } catch (err) {
      const secrets = [code, pending.verifier, ...(await this.secrets())];
      throw new OAuthFlowError('failed', `Authorization failed: ${redactedMessage(err, secrets)}`);
    }
    await this.store.delete('challenge');
  }

  /** Whether there are tokens that can be used now or refreshed. */
  async hasTokens(): Promise<boolean> {
    const stored = await this.readTokens();
    if (!stored) return false;
    return !!stored.tokens.refresh_token || stored.expiresAt === undefined || stored.expiresAt > Date.now();
  }

  /** Forgets this user's tokens and authorization state for the server (DELETE …/connections/[server]). */
  async forget(): Promise<void> {
    this.discovery = undefined;
    for (const key of ['tokens', 'pending', 'discovery', 'challenge', 'client-issuer'])
      await this.store.delete(key);
  }

  /**
   * Wraps the transport's fetch: remembers each 401/403 challenge (scope, resource_metadata) for
   * beginAuthorization, and answers a 401 to a request that carried our access token with ONE
   * refresh (shared with every concurrent caller) and a retry with the new token.
   */
  wrapFetch(inner: FetchLike): FetchLike {
    return async (url, init) => {
      const res = await inner(url, init);
      if (res.status !== 401 && res.status !== 403) return res;
      await this.noteChallenge(res);
      const sent = bearerOf(init);
      if (res.status !== 401 || !sent) return res;
      const fresh = await this.refresh(sent).catch(() => undefined);
      if (!fresh || fresh.access_token === sent) return res;
      await res.body?.cancel().catch(() => {});
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${fresh.access_token}`);
      return inner(url, { ...init, headers });
    };
  }

  // ── Internals ────────────────────────────────────────────────────────────────────────────────

  private async readTokens(): Promise<StoredTokens | undefined> {
    return readJson(this.store, 'tokens', StoredTokensSchema);
  }

  private expiresSoon(stored: StoredTokens): boolean {
    return (
      stored.expiresAt !== undefined &&
      stored.expiresAt - Date.now() < (this.opts.refreshSkewMs ?? DEFAULT_SKEW_MS)
    );
  }

  private async noteChallenge(res: Response): Promise<void> {
    const { scope, resourceMetadataUrl, error } = extractWWWAuthenticateParams(res);
    if (res.status === 403 && error !== 'insufficient_scope') return;
    if (!scope && !resourceMetadataUrl) return;
    const challenge: Challenge = { scope, resourceMetadataUrl: resourceMetadataUrl?.href };
    await this.store.set('challenge', JSON.stringify(challenge));
  }

  /**
   * Refreshes the access token, one refresh at a time per lockKey: callers arriving while one runs
   * share its result. `rejected` is the token a server refused; if the stored one differs, another
   * caller already refreshed and that one is returned. Resolves undefined when there is nothing to
   * refresh with or the refresh token was refused (then the tokens are dropped).
   */
  private refresh(rejected?: string): Promise<OAuthTokens | undefined> {
    return singleFlightRefresh(this.opts.lockKey, () => this.refreshNow(rejected));
  }

  private async refreshNow(rejected: string | undefined): Promise<OAuthTokens | undefined> {
    const stored = await this.readTokens();
    if (!stored) return undefined;
    const current =
      rejected === undefined ? !this.expiresSoon(stored) : stored.tokens.access_token !== rejected;
    if (current) return stored.tokens;
    const refreshToken = stored.tokens.refresh_token;
    if (!refreshToken) return undefined;
    let discovery = await this.discoveryState();
    if (!discovery) {
      discovery = await discoverOAuthServerInfo(this.serverUrl, { fetchFn: this.fetchFn });
      await this.saveDiscoveryState(discovery);
    }
    const issuer = discovery.authorizationServerUrl;
    // Never present a refresh token or client to an authorization server they were not issued by.
    if (stored.tokens.issuer && !sameUrl(stored.tokens.issuer, issuer)) return undefined;
    const client = await this.clientInformation();
    if (!client || (client.issuer && !sameUrl(client.issuer, issuer))) return undefined;
    try {
      const next = await refreshAuthorization(issuer, {
        metadata: discovery.authorizationServerMetadata,
        clientInformation: client,
        refreshToken,
        resource: await this.resourceFor(discovery),
        addClientAuthentication: this.addClientAuthentication,
        fetchFn: this.fetchFn,
      });
      const tokens = { ...next, issuer };
      await this.saveTokens(tokens);
      return tokens;
    } catch (err) {
      if (err instanceof InvalidGrantError) {
        await this.store.delete('tokens');
        return undefined;
      }
      throw new OAuthFlowError(
        'failed',
        `Token refresh failed: ${redactedMessage(err, [refreshToken, stored.tokens.access_token, client.client_secret])}`,
      );
    }
  }

  /** The `resource` the SDK's auth() sends: the metadata's string as written, checked against the server. */
  private async resourceFor(discovery: OAuthDiscoveryState): Promise<string | URL | undefined> {
    const selected = await selectResourceURL(this.serverUrl, this, discovery.resourceMetadata);
    return selected && discovery.resourceMetadata ? discovery.resourceMetadata.resource : selected;
  }

  private async secrets(): Promise<(string | undefined)[]> {
    const stored = await this.readTokens().catch(() => undefined);
    const client = await this.clientInformation().catch(() => undefined);
    return [
      this.opts.config?.clientSecret,
      client?.client_secret,
      stored?.tokens.access_token,
      stored?.tokens.refresh_token,
    ];
  }
}

function urlOrUndefined(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
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
