import 'server-only';
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { getSetting, updateSettings } from '@/db/queries/settings';
import { mcpServers } from '@/db/schema';
import { BUILTIN_SERVERS, type McpServerConfig, McpServerConfigSchema } from '@/lib/schemas/mcp';

export type McpServerRecord = { id: string; config: McpServerConfig; createdAt: Date; updatedAt: Date };

function toRecord(row: typeof mcpServers.$inferSelect): McpServerRecord | null {
  const parsed = McpServerConfigSchema.safeParse(row.config);
  if (!parsed.success) {
    console.error(`[mcp] stored config of "${row.name}" is invalid; skipping it`);
    return null;
  }
  return { id: row.id, config: parsed.data, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

export function listMcpServers(db: Db): McpServerRecord[] {
  return db
    .select()
    .from(mcpServers)
    .orderBy(asc(mcpServers.name))
    .all()
    .map(toRecord)
    .filter((r): r is McpServerRecord => r !== null);
}

export function getMcpServer(db: Db, id: string): McpServerRecord | null {
  const row = db.select().from(mcpServers).where(eq(mcpServers.id, id)).get();
  return row ? toRecord(row) : null;
}

export function getMcpServerByName(db: Db, name: string): McpServerRecord | null {
  const row = db.select().from(mcpServers).where(eq(mcpServers.name, name)).get();
  return row ? toRecord(row) : null;
}

/** Inserts a server; returns null when the name is taken. */
export function createMcpServer(db: Db, config: McpServerConfig): McpServerRecord | null {
  const row = db
    .insert(mcpServers)
    .values({ id: randomUUID(), name: config.name, config })
    .onConflictDoNothing({ target: mcpServers.name })
    .returning()
    .get();
  return row ? toRecord(row) : null;
}

export function updateMcpServer(db: Db, id: string, config: McpServerConfig): McpServerRecord | null {
  const row = db.update(mcpServers).set({ name: config.name, config, updatedAt: new Date() }).where(eq(mcpServers.id, id)).returning().get();
  return row ? toRecord(row) : null;
}

export function deleteMcpServer(db: Db, id: string): boolean {
  return db.delete(mcpServers).where(eq(mcpServers.id, id)).run().changes > 0;
}

/** Adds or replaces servers by name in one transaction; says what changed. */
export function upsertMcpServers(db: Db, configs: McpServerConfig[]): { added: string[]; updated: string[]; unchanged: string[] } {
  const out = { added: [] as string[], updated: [] as string[], unchanged: [] as string[] };
  db.transaction((tx) => {
    for (const config of configs) {
      const row = tx.select().from(mcpServers).where(eq(mcpServers.name, config.name)).get();
      if (!row) {
        tx.insert(mcpServers).values({ id: randomUUID(), name: config.name, config }).run();
        out.added.push(config.name);
      } else if (JSON.stringify(row.config) !== JSON.stringify(config)) {
        tx.update(mcpServers).set({ config, updatedAt: new Date() }).where(eq(mcpServers.id, row.id)).run();
        out.updated.push(config.name);
      } else {
        out.unchanged.push(config.name);
      }
    }
  });
  return out;
}

/** On a fresh install the offline built-ins (time, calculator) are added once; a deleted one stays deleted. */
export function seedBuiltinServers(db: Db): void {
  if (getSetting(db, 'builtinsSeeded')) return;
  for (const builtin of BUILTIN_SERVERS) {
    createMcpServer(db, { name: builtin, transport: 'builtin', builtin, enabled: true, timeoutMs: 60_000 });
  }
  updateSettings(db, { builtinsSeeded: true });
}
