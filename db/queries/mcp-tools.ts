import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { mcpServers, mcpTools } from '@/db/schema';
import { definitionHash, type ToolDefinition } from '@/lib/mcp/tool-definition';

export type ToolSettingRow = typeof mcpTools.$inferSelect & { serverName: string };

export function listToolSettings(db: Db): ToolSettingRow[] {
  return db
    .select({ setting: mcpTools, serverName: mcpServers.name })
    .from(mcpTools)
    .innerJoin(mcpServers, eq(mcpServers.id, mcpTools.serverId))
    .all()
    .map((r) => ({ ...r.setting, serverName: r.serverName }));
}

/**
 * Records the definitions a server announced. A tool seen for the first time is taken as reviewed;
 * a definition that differs from the reviewed one marks the tool changed (it then asks again).
 * Returns true when anything was written.
 */
export function observeToolDefinitions(db: Db, serverId: string, definitions: ToolDefinition[]): boolean {
  let wrote = false;
  db.transaction((tx) => {
    const rows = new Map(
      tx
        .select()
        .from(mcpTools)
        .where(eq(mcpTools.serverId, serverId))
        .all()
        .map((r) => [r.tool, r]),
    );
    for (const def of definitions) {
      const hash = definitionHash(def);
      const row = rows.get(def.name);
      if (!row) {
        tx.insert(mcpTools)
          .values({ serverId, tool: def.name, reviewedHash: hash, reviewedDefinition: def })
          .run();
        wrote = true;
      } else if ((row.reviewedHash !== hash) !== row.changed) {
        tx.update(mcpTools)
          .set({ changed: row.reviewedHash !== hash, updatedAt: new Date() })
          .where(and(eq(mcpTools.serverId, serverId), eq(mcpTools.tool, def.name)))
          .run();
        wrote = true;
      }
    }
  });
  return wrote;
}

/** Admin changes; setting the approval or marking reviewed accepts the current definition. */
export function updateToolSetting(
  db: Db,
  serverId: string,
  tool: string,
  patch: { enabled?: boolean; approval?: 'auto' | 'ask'; reviewed?: boolean },
  current: ToolDefinition | null,
): typeof mcpTools.$inferSelect | null {
  const accept = (patch.approval !== undefined || patch.reviewed) && current;
  const values = {
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.approval !== undefined ? { approval: patch.approval } : {}),
    ...(accept ? { reviewedHash: definitionHash(current), reviewedDefinition: current, changed: false } : {}),
    updatedAt: new Date(),
  };
  const existing = db
    .select()
    .from(mcpTools)
    .where(and(eq(mcpTools.serverId, serverId), eq(mcpTools.tool, tool)))
    .get();
  if (!existing) {
    if (!current) return null;
    return db
      .insert(mcpTools)
      .values({
        serverId,
        tool,
        reviewedHash: definitionHash(current),
        reviewedDefinition: current,
        ...values,
      })
      .returning()
      .get();
  }
  return (
    db
      .update(mcpTools)
      .set(values)
      .where(and(eq(mcpTools.serverId, serverId), eq(mcpTools.tool, tool)))
      .returning()
      .get() ?? null
  );
}
