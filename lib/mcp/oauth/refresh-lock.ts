import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * Single-flight token refresh: a refresh token is usually single use, so concurrent requests that
 * all found the access token expired (or all got a 401) must share one refresh instead of racing
 * and invalidating each other's tokens. The lock is process-wide, keyed by (user, server), so it
 * holds across every McpOAuthProvider instance made for that pair. Also oneAtATime, for the other
 * read-then-write of a (user, server) pair's state (the authorizations in progress).
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

/** The tail of each key's queue of {@link oneAtATime} steps. */
const queues = new Map<string, Promise<void>>();

/**
 * Runs `step` after every step queued before it under `key` has ended, in this process: a read-then-write
 * of one stored value (the list of authorizations in progress) that two requests must not interleave.
 */
export function oneAtATime<T>(key: string, step: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(step);
  const tail = run.then(
    () => {},
    () => {},
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}
