import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { changes, first, lockStep, nextUpdatedAt, q, transaction } from '@/db/run';
import { getSetting, updateSettings } from '@/db/queries/settings';
import { SECRET_FIELDS } from '@/db/queries/stored-secrets';
import { openValue, reportUnreadable, sealValue } from '@/db/sealing';
import { mcpServers } from '@/db/tables';
import { BUILTIN_SERVERS, type McpServerConfig, McpServerConfigSchema } from '@/lib/schemas/mcp';
import { isSealed } from '@/lib/secret-box';

export type McpServerRecord = {
  id: string;
  /** Env and header values in clear (sealed only in the database). */
  config: McpServerConfig;
  createdAt: Date;
  updatedAt: Date;
  /** Secrets (`env.KEY`, `headers.Name`) that cannot be decrypted with this key: left out of `config`. */
  unreadable: string[];
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The config as stored: every env and header value sealed. */
function sealConfig(db: Db, config: McpServerConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const field of SECRET_FIELDS) {
    const values = out[field];
    if (isRecord(values))
      out[field] = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, sealValue(db, String(v))]));
  }
  const oauth = out.oauth;
  if (isRecord(oauth) && typeof oauth.clientSecret === 'string')
    out.oauth = { ...oauth, clientSecret: sealValue(db, oauth.clientSecret) };
  return out;
}

/** The stored config with its secrets opened; a value that does not open is left out and named. */
function openConfig(
  db: Db,
  stored: Record<string, unknown>,
): { config: Record<string, unknown>; unreadable: string[] } {
  const config = { ...stored };
  const unreadable: string[] = [];
  for (const field of SECRET_FIELDS) {
    const values = config[field];
    if (!isRecord(values)) continue;
    const opened: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) {
      // Values are sealed when the database opens; one in clear here is kept as it is.
      const plain = typeof v === 'string' && isSealed(v) ? openValue(db, v) : v;
      if (plain === null) unreadable.push(`${field}.${k}`);
      else opened[k] = plain;
    }
    config[field] = opened;
  }
  const oauth = config.oauth;
  if (isRecord(oauth) && typeof oauth.clientSecret === 'string' && isSealed(oauth.clientSecret)) {
    const { clientSecret, ...rest } = oauth;
    const plain = openValue(db, clientSecret);
    if (plain === null) unreadable.push('oauth.clientSecret');
    config.oauth = plain === null ? rest : { ...rest, clientSecret: plain };
  }
  return { config, unreadable };
}

function toRecord(db: Db, row: typeof mcpServers.$inferSelect): McpServerRecord | null {
  const { config, unreadable } = openConfig(db, row.config);
  const parsed = McpServerConfigSchema.safeParse(config);
  if (!parsed.success) {
    console.error(`[mcp] stored config of "${row.name}" is invalid; skipping it`);
    return null;
  }
  if (unreadable.length) reportUnreadable(`MCP server "${row.name}"`, unreadable);
  return { id: row.id, config: parsed.data, createdAt: row.createdAt, updatedAt: row.updatedAt, unreadable };
}

export async function listMcpServers(db: Db): Promise<McpServerRecord[]> {
  const rows = await db.select().from(mcpServers).orderBy(asc(mcpServers.name));
  return rows.map((row) => toRecord(db, row)).filter((r): r is McpServerRecord => r !== null);
}

export async function getMcpServer(db: Db, id: string): Promise<McpServerRecord | null> {
  const row = first(await db.select().from(mcpServers).where(eq(mcpServers.id, id)));
  return row ? toRecord(db, row) : null;
}

export async function getMcpServerByName(db: Db, name: string): Promise<McpServerRecord | null> {
  const row = first(await db.select().from(mcpServers).where(eq(mcpServers.name, name)));
  return row ? toRecord(db, row) : null;
}

/** A server's id by name, without reading (and decrypting) its config. */
export async function getMcpServerId(db: Db, name: string): Promise<string | null> {
  return (
    first(await db.select({ id: mcpServers.id }).from(mcpServers).where(eq(mcpServers.name, name)))?.id ??
    null
  );
}

/** Inserts a server; returns null when the name is taken. */
export async function createMcpServer(db: Db, config: McpServerConfig): Promise<McpServerRecord | null> {
  const [row] = await db
    .insert(mcpServers)
    .values({ id: randomUUID(), name: config.name, config: sealConfig(db, config) })
    .onConflictDoNothing({ target: mcpServers.name })
    .returning();
  return row ? toRecord(db, row) : null;
}

/**
 * Writes a server read at `read` (its updatedAt then), only when nobody has written it since, in one
 * conditional UPDATE: null when it was changed (or deleted) in between. Its config is one sealed value,
 * so a write over a newer version would put back every field of the older one.
 */
export async function updateMcpServer(
  db: Db,
  id: string,
  config: McpServerConfig,
  read: Date,
): Promise<McpServerRecord | null> {
  const [row] = await db
    .update(mcpServers)
    .set({ name: config.name, config: sealConfig(db, config), updatedAt: nextUpdatedAt(read) })
    .where(and(eq(mcpServers.id, id), eq(mcpServers.updatedAt, read)))
    .returning();
  return row ? toRecord(db, row) : null;
}

export async function deleteMcpServer(db: Db, id: string): Promise<boolean> {
  return changes(await db.delete(mcpServers).where(eq(mcpServers.id, id))) > 0;
}

/** Adds or replaces servers by name in one transaction; says what changed. */
export async function upsertMcpServers(
  db: Db,
  configs: McpServerConfig[],
): Promise<{ added: string[]; updated: string[]; unchanged: string[] }> {
  const out = { added: [] as string[], updated: [] as string[], unchanged: [] as string[] };
  await transaction(db, function* (tx) {
    // Instances starting with one servers file import it at once (Postgres): one name, one at a time,
    // locked in one order so that two imports listing them differently cannot wait on each other.
    for (const name of [...new Set(configs.map((c) => c.name))].sort())
      yield* lockStep(tx, `server\n${name}`);
    for (const config of configs) {
      const row = first(yield* q(tx.select().from(mcpServers).where(eq(mcpServers.name, config.name))));
      const stored = row && toRecord(db, row);
      const added =
        !row &&
        (yield* q(
          tx
            .insert(mcpServers)
            .values({ id: randomUUID(), name: config.name, config: sealConfig(db, config) })
            // An admin's "Add server" of this name (which takes no lock) may have come first: it is updated.
            .onConflictDoNothing({ target: mcpServers.name })
            .returning({ id: mcpServers.id }),
        )).length > 0;
      if (added) out.added.push(config.name);
      else if (
        !row ||
        !stored ||
        stored.unreadable.length ||
        JSON.stringify(stored.config) !== JSON.stringify(config)
      ) {
        yield* q(
          tx
            .update(mcpServers)
            .set({ config: sealConfig(db, config), updatedAt: nextUpdatedAt(row?.updatedAt ?? new Date(0)) })
            .where(eq(mcpServers.name, config.name)),
        );
        out.updated.push(config.name);
      } else {
        out.unchanged.push(config.name);
      }
    }
  });
  return out;
}

/** On a fresh install the offline built-ins (time, calculator) are added once; a deleted one stays deleted. */
export async function seedBuiltinServers(db: Db): Promise<void> {
  if (await getSetting(db, 'builtinsSeeded')) return;
  for (const builtin of BUILTIN_SERVERS) {
    await createMcpServer(db, {
      name: builtin,
      transport: 'builtin',
      builtin,
      enabled: true,
      timeoutMs: 60_000,
      allow: ['*'],
      scope: 'shared',
      userValues: [],
    });
  }
  await updateSettings(db, { builtinsSeeded: true });
}
