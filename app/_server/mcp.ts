import 'server-only';
import { readFileSync } from 'node:fs';
import { getDb } from '@/db/client';
import { listMcpServers, seedBuiltinServers, upsertMcpServers } from '@/db/queries/mcp-servers';
import { planImport } from '@/app/_server/mcp-import';
import { getPool } from '@/lib/mcp/pool';
import { getEnv } from '@/lib/env';
import { userSetup } from '@/app/_server/mcp-user-setup';
import { observeTools } from '@/app/_server/tool-policy';
import { dropProcessState } from '@/lib/process-state';
import { publishInvalidation } from '@/lib/shared/invalidation';
import { oneAtATime } from '@/lib/one-at-a-time';

/** After an admin changes a server: applies the stored configs here and in every other instance (REDIS_URL). */
export async function syncPool(): Promise<void> {
  await applyServerConfigs();
  publishInvalidation('mcp-servers');
}

/**
 * Ends a user's per-user MCP connections (of one server, or all of them) here and in every other
 * instance and worker (REDIS_URL): their values or sign-in changed, they disconnected, or the account
 * was disabled, demoted or deleted. The next use starts afresh wherever it lands.
 */
export async function closeUserConnections(userId: string, server?: string): Promise<void> {
  await closeUserConnectionsHere(userId, server);
  publishInvalidation('user-connections', { userId, ...(server !== undefined && { server }) });
}

/** The local half of {@link closeUserConnections}; also what another instance's message does here. */
export function closeUserConnectionsHere(userId: string, server?: string): Promise<void> {
  return server === undefined ? getPool().closeAllOfUser(userId) : getPool().closeUser(server, userId);
}

/**
 * Hands the pool the stored configs; it reconnects changed servers and closes removed or disabled ones.
 * A server whose stored secrets cannot be decrypted is not run (the admin list shows why). One at a time,
 * each reading the configs when its turn comes: two at once (two saves, or a save and another instance's
 * message) could otherwise apply an older read last (on Postgres, reads on two connections may answer out
 * of order), and the pool would run stale configs until the next change.
 */
export function applyServerConfigs(): Promise<void> {
  return oneAtATime('mcp-server-configs', applyStoredConfigs);
}

async function applyStoredConfigs(): Promise<void> {
  dropProcessState('toolPolicy'); // each instance drops its own; no "tools" message per instance
  const pool = getPool();
  const env = getEnv();
  pool.toolsObserver = observeTools;
  pool.userSetup = userSetup;
  pool.limits = { perUser: env.MCP_MAX_CONNECTIONS_PER_USER, total: env.MCP_MAX_USER_CONNECTIONS };
  pool.sync((await listMcpServers(getDb())).filter((r) => r.unreadable.length === 0).map((r) => r.config));
  pool.warm(); // a new or changed shared server connects now, so its status is real at once
}

/** `MCP_SERVERS_FILE`: imported at start like the import API (masked values keep stored secrets), idempotent by name; problems are logged, never fatal. */
async function importServersFile(path: string): Promise<void> {
  try {
    const { configs, errors, kept } = await planImport(JSON.parse(readFileSync(path, 'utf8')));
    const result = await upsertMcpServers(getDb(), configs);
    console.log(
      `[mcp] ${path}: added ${result.added.length}, updated ${result.updated.length}, unchanged ${result.unchanged.length}`,
    );
    for (const k of kept)
      console.log(`[mcp] ${path}: server "${k.name}" keeps its stored ${k.keys.join(', ')}`);
    for (const e of errors) console.error(`[mcp] ${path}: server "${e.name}" skipped: ${e.message}`);
  } catch (err) {
    console.error(`[mcp] could not import ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** At server start: seed the built-ins, import the servers file, connect everything in the background. */
export async function startMcp(): Promise<void> {
  const db = getDb();
  await seedBuiltinServers(db);
  const file = getEnv().MCP_SERVERS_FILE;
  if (file) await importServersFile(file);
  await applyServerConfigs();
  // On shutdown, end MCP children cleanly (stdin closed, then SIGTERM, then SIGKILL) rather than orphaning them.
  process.once('SIGTERM', () => void getPool().closeAll());
}
