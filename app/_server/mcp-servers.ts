import 'server-only';
import * as z from '@/lib/zod';
import { getDb } from '@/db/client';
import { type ServerStats, serverStats } from '@/db/queries/tool-calls';
import {
  createMcpServer,
  getMcpServerId,
  getMcpServer,
  getMcpServerByName,
  listMcpServers,
  type McpServerRecord,
  updateMcpServer,
  upsertMcpServers,
} from '@/db/queries/mcp-servers';
import { unreadableMessage } from '@/db/sealing';
import { syncPool } from '@/app/_server/mcp';
import { planImport } from '@/app/_server/mcp-import';
import { liveStatuses, type ProcessStatus } from '@/app/_server/mcp-status';
import { AppError, changedSince, notFound } from '@/lib/errors';
import { parseWith } from '@/lib/http';
import { maskConfig, missingSecretsMessage, unmaskSecrets, withMasked } from '@/lib/mcp/mask';
import { mergeShared, mergeUsers } from '@/lib/mcp/merge-status';
import { type McpServerConfig, McpServerConfigSchema, type ServerStatusInfo } from '@/lib/schemas/mcp';

const NO_STATS: ServerStats = { calls24h: 0, errors24h: 0, errorRate: 0, p50Ms: null, p95Ms: null };

/** A server whose stored secrets cannot be decrypted is not run: shown in error, with what to do. */
function unreadableStatus(record: McpServerRecord): ServerStatusInfo {
  return {
    name: record.config.name,
    status: 'error',
    lastError: {
      kind: 'auth',
      message: unreadableMessage(record.unreadable),
      at: record.updatedAt.toISOString(),
    },
    connectedSince: null,
    toolCount: 0,
    retryAt: null,
  };
}

/**
 * A server as the admin API shows it: config with secrets masked, live status (over every server
 * process: `live` from liveStatuses, asked here when not given), 24 h statistics.
 */
export async function presentServer(
  record: McpServerRecord,
  stats?: Map<string, ServerStats>,
  live?: Map<string, ProcessStatus[]>,
) {
  stats ??= await serverStats(getDb());
  live ??= await liveStatuses([record.config.name]);
  const processes = live.get(record.config.name) ?? [];
  const status = record.unreadable.length
    ? unreadableStatus(record)
    : record.config.scope === 'user'
      ? mergeUsers(
          record.config,
          processes.flatMap((p) => p.users),
        )
      : mergeShared(processes.flatMap((p) => (p.shared ? [p.shared] : [])));
  return {
    id: record.id,
    ...maskConfig(withMasked(record.config, record.unreadable)),
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    stats: stats.get(record.config.name) ?? NO_STATS,
    status: status ?? {
      name: record.config.name,
      status: record.config.enabled ? 'idle' : 'disabled',
      lastError: null,
      connectedSince: null,
      toolCount: 0,
      retryAt: null,
    },
  };
}

/** Masked values keep the stored secret; a masked value with none to keep is a 400 naming the key. */
function unmasked(config: McpServerConfig, stored: McpServerConfig | null): McpServerConfig {
  const result = unmaskSecrets(config, stored);
  if (result.missing.length) {
    throw new AppError(
      'bad_request',
      `Invalid server: ${missingSecretsMessage(result.missing)}.`,
      Object.fromEntries(result.missing.map((k) => [k, 'has no stored secret to keep'])),
    );
  }
  return result.config;
}

export async function createServer(body: unknown) {
  const config = parseWith(McpServerConfigSchema, body, 'server');
  const record = await createMcpServer(getDb(), unmasked(config, null));
  if (!record) throw nameTaken(config.name);
  await syncPool();
  return presentServer(record);
}

const nameTaken = (name: string) =>
  new AppError('conflict', `A server named "${name}" exists.`, { name: 'is already taken' });

/** How often a PATCH without If-Match reads and merges again when other saves keep landing in between. */
const MERGE_ATTEMPTS = 5;

/**
 * PATCH: the stored config, overlaid with the fields given, validated whole; masked secrets stay as stored.
 * `ifMatch` (the edit form's If-Match: the updatedAt it was opened at) makes it a 409 when the server was
 * written since, so a stale form cannot overwrite another admin's change. Without it (the list's on/off
 * switch, API clients) the PATCH applies its fields to the current config: the write is conditional on the
 * version it merged with, and when another save landed in between it merges again with that one, so it
 * never puts back the older values of fields it did not send.
 */
export async function updateServer(id: string, body: unknown, ifMatch: Date | null = null) {
  const db = getDb();
  let stored = await getMcpServer(db, id);
  if (!stored) throw notFound('Server not found.');
  const patch = parseWith(z.record(z.string(), z.unknown()), body, 'server');
  for (let attempt = 1; ; attempt++) {
    // Compared to the millisecond, as the view shows it (toISOString).
    if (ifMatch && ifMatch.getTime() !== stored.updatedAt.getTime()) throw changedSince('server');
    const config = patched(stored, patch);
    const record = await updateMcpServer(db, id, config, stored.updatedAt).catch(async (err: unknown) => {
      // A rename to a name another server has (or took a moment ago, another admin's save): the 409
      // adding one gets, not the unique index's error.
      const holder = await getMcpServerId(db, config.name);
      throw holder !== null && holder !== id ? nameTaken(config.name) : err;
    });
    if (record) {
      await syncPool();
      return presentServer(record);
    }
    // Written (or deleted) between the read and this write: read the version now stored.
    stored = await getMcpServer(db, id);
    if (!stored) throw notFound('Server not found.');
    if (attempt === MERGE_ATTEMPTS) throw changedSince('server');
  }
}

/** A stored server's config with a PATCH's fields over it, validated whole. */
function patched(stored: McpServerRecord, fields: Record<string, unknown>): McpServerConfig {
  // `"logLevel": null` unsets it: the server's own default applies again.
  const patch = { ...fields };
  const unsetLogLevel = patch.logLevel === null;
  if (unsetLogLevel) delete patch.logLevel;
  // Switching transport starts from the common fields, so the old transport's fields don't linger.
  // Secrets that cannot be decrypted come in as masks: an edit enters them again or removes them (else 400), never drops them unseen.
  const { name, enabled, timeoutMs } = stored.config;
  const base =
    patch.transport && patch.transport !== stored.config.transport
      ? { name, enabled, timeoutMs }
      : withMasked(stored.config, stored.unreadable);
  const merged = parseWith(
    McpServerConfigSchema,
    { ...base, ...patch, ...(unsetLogLevel && { logLevel: undefined }) },
    'server',
  );
  return unmasked(merged, stored.config);
}

/** Import (or preview) a Claude Desktop config; good entries apply even when others are invalid. */
export async function importServers(json: unknown, dryRun: boolean) {
  const { configs, errors, kept } = await planImport(json);
  const db = getDb();
  if (dryRun) {
    const out = { added: [] as string[], updated: [] as string[], unchanged: [] as string[] };
    for (const config of configs) {
      const stored = await getMcpServerByName(db, config.name);
      if (!stored) out.added.push(config.name);
      else if (!stored.unreadable.length && JSON.stringify(stored.config) === JSON.stringify(config))
        out.unchanged.push(config.name);
      else out.updated.push(config.name);
    }
    return { ...out, kept, errors };
  }
  const result = await upsertMcpServers(db, configs);
  await syncPool();
  return { ...result, kept, errors };
}

/** The stored servers in Claude Desktop form; env and header values masked unless asked for. */
export async function exportServers(withSecrets: boolean) {
  const mcpServers: Record<string, Record<string, unknown>> = {};
  for (const { config: stored, unreadable } of await listMcpServers(getDb())) {
    const c = withSecrets ? stored : maskConfig(withMasked(stored, unreadable));
    const common = {
      ...(c.enabled ? {} : { disabled: true }),
      timeoutMs: c.timeoutMs,
      scope: c.scope,
      allow: c.allow,
      ...(c.userValues.length ? { userValues: c.userValues } : {}),
      ...(c.roots?.length ? { roots: c.roots } : {}),
      ...(c.sampling ? { sampling: c.sampling } : {}),
      ...(c.logLevel ? { logLevel: c.logLevel } : {}),
    };
    if (c.transport === 'stdio')
      mcpServers[c.name] = {
        command: c.command,
        args: c.args,
        env: c.env,
        ...(c.cwd ? { cwd: c.cwd } : {}),
        ...common,
      };
    else if (c.transport === 'builtin')
      mcpServers[c.name] = { transport: 'builtin', builtin: c.builtin, ...common };
    else
      mcpServers[c.name] = {
        type: c.transport,
        url: c.url,
        headers: c.headers,
        ...(c.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
        ...(c.oauth ? { oauth: c.oauth } : {}),
        ...common,
      };
  }
  return { mcpServers };
}
