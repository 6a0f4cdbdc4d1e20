import 'server-only';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { createMcpServer, getMcpServer, type McpServerRecord, updateMcpServer } from '@/db/queries/mcp-servers';
import { syncPool } from '@/app/_server/mcp';
import { AppError, notFound } from '@/lib/errors';
import { parseWith } from '@/lib/http';
import { maskConfig, unmaskConfig } from '@/lib/mcp/mask';
import { getPool } from '@/lib/mcp/pool';
import { McpServerConfigSchema } from '@/lib/schemas/mcp';

/** A server as the admin API shows it: config with secrets masked, plus live status. */
export function presentServer(record: McpServerRecord) {
  const status = getPool().get(record.config.name)?.status() ?? null;
  return {
    id: record.id,
    ...maskConfig(record.config),
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    status: status ?? { name: record.config.name, status: record.config.enabled ? 'idle' : 'disabled', lastError: null, connectedSince: null, toolCount: 0, retryAt: null },
  };
}

export function createServer(body: unknown) {
  const config = parseWith(McpServerConfigSchema, body, 'server');
  const record = createMcpServer(getDb(), unmaskConfig(config, null));
  if (!record) throw new AppError('conflict', `A server named "${config.name}" exists.`, { name: 'is already taken' });
  syncPool();
  return presentServer(record);
}

/** PATCH: the stored config, overlaid with the fields given, validated whole; masked secrets stay as stored. */
export function updateServer(id: string, body: unknown) {
  const db = getDb();
  const stored = getMcpServer(db, id);
  if (!stored) throw notFound('Server not found.');
  const patch = parseWith(z.record(z.string(), z.unknown()), body, 'server');
  // Switching transport starts from the common fields, so the old transport's fields don't linger.
  const { name, enabled, timeoutMs } = stored.config;
  const base = patch.transport && patch.transport !== stored.config.transport ? { name, enabled, timeoutMs } : stored.config;
  const merged = parseWith(McpServerConfigSchema, { ...base, ...patch }, 'server');
  const record = updateMcpServer(db, id, unmaskConfig(merged, stored.config));
  if (!record) throw notFound('Server not found.');
  syncPool();
  return presentServer(record);
}
