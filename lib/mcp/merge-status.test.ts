import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeShared, mergeUsers } from '@/lib/mcp/merge-status';
import type { UserConnectionInfo } from '@/lib/mcp/pool';
import type { McpServerConfig, ServerStatusInfo } from '@/lib/schemas/mcp';

const status = (over: Partial<ServerStatusInfo>): ServerStatusInfo => ({
  name: 'files',
  status: 'connected',
  lastError: null,
  connectedSince: '2026-11-29T10:00:00.000Z',
  toolCount: 3,
  retryAt: null,
  ...over,
});
const failure = {
  kind: 'connection' as const,
  message: 'fatal: exited with 1',
  at: '2026-11-29T10:05:00.000Z',
};

test('a shared server connected in one process and failing in two shows the failure and the counts', () => {
  const merged = mergeShared([
    status({ connectedSince: '2026-11-29T10:01:00.000Z' }),
    status({ status: 'error', lastError: failure, connectedSince: null, toolCount: 0, retryAt: 'R' }),
    status({ status: 'connected', connectedSince: '2026-11-29T09:59:00.000Z', toolCount: 4 }),
    status({
      status: 'error',
      lastError: { ...failure, at: '2026-11-29T10:04:00.000Z' },
      connectedSince: null,
    }),
  ]);
  assert.deepEqual(merged, {
    name: 'files',
    status: 'error',
    lastError: failure,
    connectedSince: '2026-11-29T09:59:00.000Z',
    toolCount: 4,
    retryAt: 'R',
    processes: { total: 4, connected: 2, failing: 2 },
  });
});

test('all connected: connected, the earliest connection; an old error of a reconnected process stays shown grey', () => {
  const old = { ...failure, at: '2026-11-29T09:00:00.000Z' };
  assert.deepEqual(
    mergeShared([status({ status: 'idle', connectedSince: null }), status({ lastError: old })]),
    {
      ...status({ lastError: old }),
      processes: { total: 2, connected: 1, failing: 0 },
    },
  );
  assert.equal(mergeShared([status({ status: 'connecting' }), status({})])?.status, 'connected');
  assert.equal(mergeShared([]), null);
});

const user = (id: string, over: Partial<ServerStatusInfo>): UserConnectionInfo => ({
  user: { id, email: `${id}@example.com` },
  ...status(over),
});
const config = { name: 'files', enabled: true } as McpServerConfig;

test('a per-user server counts each user once across processes, and shows the newest error of any', () => {
  const merged = mergeUsers(config, [
    user('u1', { connectedSince: '2026-11-29T10:02:00.000Z' }),
    user('u1', { connectedSince: '2026-11-29T10:03:00.000Z' }),
    user('u2', { status: 'error', lastError: failure, connectedSince: null }),
  ]);
  assert.deepEqual(merged, {
    name: 'files',
    status: 'connected',
    lastError: failure,
    connectedSince: '2026-11-29T10:02:00.000Z',
    toolCount: 3,
    retryAt: null,
    users: 2,
  });
  assert.equal(mergeUsers(config, []).status, 'idle');
  assert.equal(mergeUsers({ ...config, enabled: false }, []).status, 'disabled');
});
