import 'server-only';
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
  settings: ReturnType<typeof getSettings> | null;
  users: LRUCache<string, { user: PublicUser | null }>;
};
declare module '@/lib/process-state' {
  interface OwnedSlots {
    hotCache: Cache;
  }
}
const USER_TTL_MS = 60_000;

/** At most 10,000 users (the least recently used go first), each for a minute. */
const cache = (): Cache =>
  processState('hotCache', () => ({
    settings: null,
    users: new LRUCache({ max: 10_000, ttl: USER_TTL_MS }),
  }));

export function cachedSettings(): ReturnType<typeof getSettings> {
  const c = cache();
  c.settings ??= getSettings(getDb());
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

export function cachedUser(id: string): PublicUser | null {
  const c = cache();
  const hit = c.users.get(id);
  if (hit) return hit.user;
  const user = getUserById(getDb(), id);
  c.users.set(id, { user });
  return user;
}

export function invalidateUser(id: string): void {
  dropCachedUser(id);
  publishInvalidation('users', id);
}

/** This instance only (another instance changed the user). */
export function dropCachedUser(id: string): void {
  cache().users.delete(id);
}
