import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * Single-flight token refresh: a refresh token is usually single use, so concurrent requests that
 * all found the access token expired (or all got a 401) must share one refresh instead of racing
 * and invalidating each other's tokens. The lock is process-wide, keyed by (user, server), so it
 * holds across every McpOAuthProvider instance made for that pair.
 */

/** One refresh at a time per (user, server), across every provider instance in this process. */
const refreshFlights = new Map<string, Promise<OAuthTokens | undefined>>();

/** Runs `refresh` unless a refresh for `key` is under way; either way resolves with that flight's result. */
export function singleFlightRefresh(
  key: string,
  refresh: () => Promise<OAuthTokens | undefined>,
): Promise<OAuthTokens | undefined> {
  let flight = refreshFlights.get(key);
  if (!flight) {
    flight = refresh().finally(() => refreshFlights.delete(key));
    refreshFlights.set(key, flight);
  }
  return flight;
}
