import 'server-only';
import { createHash } from 'node:crypto';
import { getDb } from '@/db/client';
import { getSettings } from '@/db/queries/settings';
import { getUserById, type PublicUser } from '@/db/queries/users';
import { LRUCache } from 'lru-cache';
import { processState } from '@/lib/process-state';
import { publishInvalidation } from '@/lib/shared/invalidation';

/**
 * Read-mostly rows a chat turn needs, kept in memory so a warm turn does not re-read them: the
 * settings, and users by id (for the role and disabled checks on every request). The app is one
 * process, and every write path through the app invalidates what it changes (with REDIS_URL, in every
 * instance: lib/shared/invalidation.ts); users also expire
 * after a minute, so even a change made outside the app takes effect quickly.
 */
type Cache = {
  /** The settings read (in flight or done): concurrent first readers share one read. */
  settings: ReturnType<typeof getSettings> | null;
  users: LRUCache<string, { user: PublicUser | null }>;
  /**
   * Counts user invalidations: a read that was in flight when a user changed (disabled, demoted) is not
   * cached, so the change takes effect on the very next request, not a minute later.
   */
  userChanges: number;
  /** Signed-in sessions by the digest of the request's Cookie header: whose they are, and until when. */
  sessions: LRUCache<string, CachedSession>;
  /** Counts session invalidations, as userChanges does for users. */
  sessionChanges: number;
};
/** A session the auth library found for a Cookie header. */
export type CachedSession = { userId: string; expiresAt: number };
declare module '@/lib/process-state' {
  interface OwnedSlots {
    hotCache: Cache;
  }
}
const USER_TTL_MS = 60_000;
/**
 * How long a session lookup is reused. Every sign-out, revocation, password change and user change made
 * through the app drops them at once (in every instance, with REDIS_URL); this only bounds a change
 * made outside the app, such as a session row deleted by hand.
 */
const SESSION_TTL_MS = 15_000;

/** At most 10,000 users (the least recently used go first), each for a minute. */
const cache = (): Cache =>
  processState('hotCache', () => ({
    settings: null,
    users: new LRUCache({ max: 10_000, ttl: USER_TTL_MS }),
    userChanges: 0,
    sessions: new LRUCache({ max: 10_000, ttl: SESSION_TTL_MS }),
    sessionChanges: 0,
  }));

export function cachedSettings(): ReturnType<typeof getSettings> {
  const c = cache();
  if (!c.settings) {
    const read = getSettings(getDb());
    c.settings = read;
    // A failed read is not kept: the next caller reads again.
    read.catch(() => {
      if (cache().settings === read) cache().settings = null;
    });
  }
  return c.settings;
}

export function invalidateSettings(): void {
  dropCachedSettings();
  publishInvalidation('settings');
}

/** This instance only (another instance changed the settings). */
export function dropCachedSettings(): void {
  cache().settings = null;
}

export async function cachedUser(id: string): Promise<PublicUser | null> {
  const c = cache();
  const hit = c.users.get(id);
  if (hit) return hit.user;
  const changes = c.userChanges;
  const user = await getUserById(getDb(), id);
  if (c.userChanges === changes) c.users.set(id, { user });
  return user;
}

export function invalidateUser(id: string): void {
  dropCachedUser(id);
  publishInvalidation('users', id);
}

/** This instance only (another instance changed the user). */
export function dropCachedUser(id: string): void {
  const c = cache();
  c.users.delete(id);
  c.userChanges++;
  // A user re-enabled after being disabled (which deleted their sessions) must not find them cached.
  dropCachedSessions();
}

/**
 * The session a request's cookies sign in with (`read`: the auth library's lookup), reused for up to 15 s
 * for the same Cookie header: under load most requests come from a few signed-in browsers, and the
 * lookup (cookie signature, two rows, the library's checks) is ~1 ms of CPU and two database round trips.
 * Only found sessions are kept, never an expired one, and not a read that was in flight when sessions changed.
 */
export async function cachedSession(
  headers: Headers,
  read: () => Promise<CachedSession | null>,
): Promise<CachedSession | null> {
  const cookie = headers.get('cookie');
  if (!cookie) return read();
  // By digest: a signed-in user sending long, ever-different cookies holds 10,000 short keys at most.
  const key = createHash('sha256').update(cookie).digest('base64url');
  const c = cache();
  const hit = c.sessions.get(key);
  if (hit && hit.expiresAt > Date.now()) return hit;
  const changes = c.sessionChanges;
  const found = await read();
  if (found && c.sessionChanges === changes) c.sessions.set(key, found);
  return found;
}

/** A session ended (signed out, revoked, expired): no cached lookup is reused, here or in other instances. */
export function invalidateSessions(): void {
  dropCachedSessions();
  publishInvalidation('sessions');
}

/** This instance only (a session ended on another instance). */
export function dropCachedSessions(): void {
  const c = cache();
  c.sessions.clear();
  c.sessionChanges++;
}
