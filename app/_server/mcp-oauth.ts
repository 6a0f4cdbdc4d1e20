import 'server-only';
import { closeUserConnections } from '@/app/_server/mcp';
import { getDb } from '@/db/client';
import {
  deleteOauthClient,
  deleteUserSecrets,
  getOauthClient,
  getUserSecrets,
  setOauthClient,
  setUserSecrets,
} from '@/db/queries/mcp-user-secrets';
import type { Principal } from '@/lib/access';
import { getEnv } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { safeReturnTo } from '@/lib/safe-url';
import {
  clientMetadataDocument,
  createOAuthProvider,
  type KeyValueStore,
  type McpOAuthProvider,
  OAuthFlowError,
} from '@/lib/mcp/oauth';
import { isIP } from 'node:net';
import { serverFetch } from '@/lib/net/guarded-fetch';
import { isPrivateAddress } from '@/lib/net/private-address';
import type { RemoteConfig } from '@/lib/schemas/mcp';
import { redisLock, type SharedLock } from '@/lib/shared/redis-lock';
import { sharedRedis } from '@/lib/shared/redis';

/** Where the authorization server sends the browser back (SPEC §7.2). */
export const callbackUrl = () => `${getEnv().APP_URL}/api/mcp/oauth/callback`;
/** Our Client ID Metadata Document: its URL is our client id (used when APP_URL is https). */
export const clientMetadataUrl = () => `${getEnv().APP_URL}/oauth/client-metadata.json`;

export function clientMetadata() {
  return clientMetadataDocument({
    clientMetadataUrl: clientMetadataUrl(),
    redirectUrl: callbackUrl(),
    clientName: 'MCP Chat',
  });
}

/** The key naming the address the rest of a user's OAuth state was obtained for. */
const RESOURCE_KEY = 'resource';

/**
 * One user's OAuth state for one server: rows of mcp_user_secrets (kind `oauth`), each value sealed,
 * bound to the server's address. When an admin points the server at another address, what was obtained
 * for the old one (tokens, a pending sign-in, discovery) reads as absent and is dropped at the next
 * write: a token is never sent to a server it was not issued for (S12), and the user signs in again.
 */
function userStore(userId: string, serverId: ServerId, resource: string): KeyValueStore {
  const db = getDb();
  const id = () => (typeof serverId === 'string' ? Promise.resolve(serverId) : serverId());
  /** The state bound to this address (state stored before binding existed counts as this address's). */
  const current = async (serverId: string) => {
    const all = await getUserSecrets(db, userId, serverId, 'oauth');
    const bound = all[RESOURCE_KEY];
    return bound === undefined || bound === resource ? all : null;
  };
  return {
    get: async (key) => (await current(await id()))?.[key],
    set: async (key, value) => {
      const serverId = await id();
      if (!(await current(serverId))) await deleteUserSecrets(db, userId, serverId, 'oauth');
      await setUserSecrets(db, userId, serverId, 'oauth', { [key]: value, [RESOURCE_KEY]: resource });
    },
    delete: async (key) => setUserSecrets(db, userId, await id(), 'oauth', { [key]: null }),
  };
}

/** Whether the user holds tokens for the server at its current address. */
export async function hasSignIn(userId: string, serverId: string, config: RemoteConfig): Promise<boolean> {
  return (await userStore(userId, serverId, config.url).get('tokens')) !== undefined;
}

/** A server's id, or how to find it (read when the store is first used, not when the connection is made). */
export type ServerId = string | (() => Promise<string>);

/** Clients registered with an authorization server, shared by every user (mcp_oauth_clients, sealed). */
const clientStore: KeyValueStore = {
  get: async (issuer) => (await getOauthClient(getDb(), issuer)) ?? undefined,
  set: async (issuer, client) => setOauthClient(getDb(), issuer, client),
  delete: async (issuer) => deleteOauthClient(getDb(), issuer),
};

/**
 * With a shared store, a token refresh holds a Redis lock per user and server: a user's requests may
 * reach several instances (two devices, or the workers of one box), and a refresh token is usually
 * good for one refresh only (some servers revoke the user's tokens when one is presented twice).
 */
function refreshLock(): SharedLock | undefined {
  const redis = sharedRedis();
  return redis ? redisLock(redis, 'oauth-refresh') : undefined;
}

/**
 * The OAuth client of one user for one remote server: discovery, registration, PKCE and refresh by the
 * SDK's auth() (lib/mcp/oauth), our tables as its storage. One refresh at a time per user and server,
 * across instances too.
 */
export function oauthProvider(userId: string, serverId: ServerId, config: RemoteConfig): McpOAuthProvider {
  return createOAuthProvider({
    serverUrl: config.url,
    store: userStore(userId, serverId, config.url),
    clientStore,
    lockKey: `${userId}\n${config.name}`,
    sharedLock: refreshLock(),
    redirectUrl: callbackUrl(),
    clientMetadataUrl: clientMetadataUrl(),
    clientName: 'MCP Chat',
    config: config.oauth,
    fetch: serverFetch(config.url, config.allowPrivateNetwork),
  });
}

/**
 * The authorization URL an authorization server gave us, before a browser is sent to it (S11): https
 * only — plain http just for an admin-declared private-network server on a private or loopback host —
 * never javascript:, file: or data:, and no credentials in it.
 */
export function checkedAuthorizationUrl(raw: string, config: RemoteConfig): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('bad_request', `${config.name}'s authorization server gave an invalid sign-in URL.`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const localHttp =
    url.protocol === 'http:' && config.allowPrivateNetwork && isIP(host) !== 0 && isPrivateAddress(host);
  if ((url.protocol !== 'https:' && !localHttp) || url.username || url.password)
    throw new AppError(
      'bad_request',
      `${config.name}'s authorization server gave a sign-in URL that is not https (${url.protocol}); it was not opened.`,
    );
  return url.href;
}

/** The pending sign-in a browser carries between "Connect" and the callback (a short-lived cookie). */
export type PendingSignIn = { server: string; state: string; returnTo: string };

/** "Connect <server>": the authorization URL to send the browser to. */
export async function beginSignIn(
  user: Principal,
  server: { id: string; config: RemoteConfig },
  returnTo: string,
): Promise<{ url: string; pending: PendingSignIn } | { authorized: true }> {
  const provider = oauthProvider(user.id, server.id, server.config);
  try {
    const started = await provider.beginAuthorization();
    if ('authorized' in started) {
      await closeUserConnections(user.id, server.config.name);
      return { authorized: true };
    }
    return {
      url: checkedAuthorizationUrl(started.url, server.config),
      pending: { server: server.config.name, state: started.state, returnTo: safeReturnTo(returnTo) },
    };
  } catch (err) {
    if (err instanceof AppError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new AppError('unavailable', `Could not start the sign-in to ${server.config.name}: ${message}`);
  }
}

/** The callback: exchanges the code (state checked, PKCE verifier used once) and reconnects the user. */
export async function finishSignIn(
  user: Principal,
  server: { id: string; config: RemoteConfig },
  code: string,
  state: string,
): Promise<void> {
  try {
    await oauthProvider(user.id, server.id, server.config).finishAuthorization(code, state);
  } catch (err) {
    if (err instanceof OAuthFlowError) throw new AppError('bad_request', err.message);
    throw err;
  }
  // The user's connection may be backing off after the 401 that asked for sign-in: start afresh.
  await closeUserConnections(user.id, server.config.name);
}

/** Forgets a user's tokens for a server (DELETE /api/mcp/connections/[server]). */
export async function forgetTokens(userId: string, serverId: string): Promise<void> {
  await deleteUserSecrets(getDb(), userId, serverId, 'oauth');
}
