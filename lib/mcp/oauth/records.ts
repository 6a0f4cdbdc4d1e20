import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthProviderOptions } from '@/lib/mcp/oauth/options';
import { oneAtATime } from '@/lib/one-at-a-time';
import type { KeyValueStore } from '@/lib/mcp/oauth/store';
import {
  type Challenge,
  ChallengeSchema,
  ClientInfoSchema,
  DiscoverySchema,
  MAX_PENDING,
  type Pending,
  PendingListSchema,
  readJson,
  type StoredTokens,
  StoredTokensSchema,
} from '@/lib/mcp/oauth/stored-state';

/** What McpOAuthProvider.invalidateCredentials may be asked to drop (the SDK's scopes). */
export type InvalidateScope = 'all' | 'client' | 'tokens' | 'verifier' | 'discovery';

/**
 * The persisted state of one McpOAuthProvider: reads and writes of the (user, server) store's keys
 * (tokens, pending, challenge, discovery, client-issuer) and of the shared client store, with the
 * discovery state cached for the provider instance's lifetime. Shapes are in stored-state.ts.
 */
export class ProviderRecords {
  private discovery: OAuthDiscoveryState | undefined;

  constructor(
    private readonly opts: Pick<
      OAuthProviderOptions,
      'store' | 'clientStore' | 'config' | 'lockKey' | 'sharedLock'
    >,
  ) {}

  private get store(): KeyValueStore {
    return this.opts.store;
  }

  // ── Tokens ──

  readTokens(): Promise<StoredTokens | undefined> {
    return readJson(this.store, 'tokens', StoredTokensSchema);
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const value: StoredTokens = {
      tokens,
      ...(tokens.expires_in !== undefined && { expiresAt: Date.now() + tokens.expires_in * 1000 }),
    };
    await this.store.set('tokens', JSON.stringify(value));
  }

  dropTokens(): Promise<void> {
    return this.store.delete('tokens');
  }

  // ── The authorization in progress and the last challenge ──

  /** The authorizations in progress (newest last). */
  async readPending(): Promise<Pending[]> {
    return (await readJson(this.store, 'pending', PendingListSchema)) ?? [];
  }

  /** Adds a started authorization; the ones already started stay usable (up to MAX_PENDING). */
  savePending(pending: Pending): Promise<void> {
    return this.changePending(async (list) => {
      await this.store.set('pending', JSON.stringify([...list, pending].slice(-MAX_PENDING)));
    });
  }

  /**
   * Takes the authorization in progress with this state: drops it (keeping the others) and returns it, so
   * of two callbacks with one state (a replay) only one gets it. `none`: nothing is in progress; `mismatch`:
   * no record has this state (nothing changes).
   */
  takePending(matches: (p: Pending) => boolean): Promise<Pending | 'none' | 'mismatch'> {
    return this.changePending(async (list) => {
      if (!list.length) return 'none' as const;
      const taken = list.find(matches);
      if (!taken) return 'mismatch' as const;
      const rest = list.filter((p) => p !== taken);
      if (rest.length) await this.store.set('pending', JSON.stringify(rest));
      else await this.store.delete('pending');
      return taken;
    });
  }

  /**
   * Reads the list of authorizations in progress and writes it back as one step per (user, server): two
   * tabs starting (or finishing) a sign-in at once would otherwise each write back the list they read,
   * dropping the other's record. In this process, and under the shared lock across processes.
   */
  private changePending<T>(change: (list: Pending[]) => Promise<T>): Promise<T> {
    const key = `${this.opts.lockKey}\npending`;
    const step = async () => change(await this.readPending());
    const { sharedLock } = this.opts;
    return oneAtATime(key, sharedLock ? () => sharedLock(key, step) : step);
  }

  readChallenge(): Promise<Challenge | undefined> {
    return readJson(this.store, 'challenge', ChallengeSchema);
  }

  saveChallenge(challenge: Challenge): Promise<void> {
    return this.store.set('challenge', JSON.stringify(challenge));
  }

  dropChallenge(): Promise<void> {
    return this.store.delete('challenge');
  }

  // ── Discovery ──

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.discovery = state;
    await this.store.set('discovery', JSON.stringify(state));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    this.discovery ??= await readJson(this.store, 'discovery', DiscoverySchema);
    return this.discovery;
  }

  // ── Client identity ──

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

  // ── Dropping state ──

  async invalidate(scope: InvalidateScope): Promise<void> {
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

  /** Forgets this user's tokens and authorization state for the server (the client store is shared). */
  async forget(): Promise<void> {
    this.discovery = undefined;
    for (const key of ['tokens', 'pending', 'discovery', 'challenge', 'client-issuer'])
      await this.store.delete(key);
  }

  /** Every secret an error message about this (user, server) could echo, for redaction. */
  async secrets(): Promise<(string | undefined)[]> {
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
