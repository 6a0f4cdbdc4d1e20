import 'server-only';
import { dropCachedSessions, dropCachedSettings, dropCachedUser } from '@/app/_server/hot-cache';
import { applyServerConfigs, closeUserConnectionsHere } from '@/app/_server/mcp';
import { dropProcessState } from '@/lib/process-state';
import { onInvalidation } from '@/lib/shared/invalidation';
import { loggable } from '@/lib/loggable';

/**
 * With REDIS_URL: what this instance refreshes when an admin change is made on another one — the same
 * as the instance that made the change did locally (see each `invalidate…` and syncPool). Startup.
 */
export function listenForInvalidations(): void {
  onInvalidation('settings', () => dropCachedSettings());
  onInvalidation('users', (id) => {
    if (typeof id === 'string') dropCachedUser(id);
  });
  onInvalidation('sessions', () => dropCachedSessions());
  onInvalidation('providers', () => dropProcessState('providerSpecs'));
  onInvalidation('tools', () => dropProcessState('toolPolicy'));
  onInvalidation('auth', () => dropProcessState('auth'));
  onInvalidation('user-connections', (payload) => {
    const { userId, server } = (payload ?? {}) as { userId?: unknown; server?: unknown };
    if (typeof userId !== 'string' || (server !== undefined && typeof server !== 'string')) return;
    closeUserConnectionsHere(userId, server).catch((err) =>
      console.error('[mcp] could not close a user’s connections', loggable(err)),
    );
  });
  onInvalidation('mcp-servers', () => {
    applyServerConfigs().catch((err) =>
      console.error('[mcp] could not apply changed server configs', loggable(err)),
    );
  });
}
