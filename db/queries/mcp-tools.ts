import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { first, lockStep, q, transaction } from '@/db/run';
import { acceptToolViews, observeToolViews } from '@/db/queries/mcp-tool-views';
import { mcpServers, mcpTools } from '@/db/tables';
import { definitionHash, type ToolDefinition } from '@/lib/mcp/tool-definition';
import { storableText } from '@/lib/stored-text';

export type ToolSettingRow = typeof mcpTools.$inferSelect & { serverName: string };

export async function listToolSettings(db: Db): Promise<ToolSettingRow[]> {
  const rows = await db
    .select({ setting: mcpTools, serverName: mcpServers.name })
    .from(mcpTools)
    .innerJoin(mcpServers, eq(mcpServers.id, mcpTools.serverId));
  return rows.map((r) => ({ ...r.setting, serverName: r.serverName }));
}

/**
 * The key a tool's setting is stored under: its name, with U+FFFD for a NUL (which a Postgres text column
 * cannot hold; a server may name a tool so). Its definition keeps the name as the server wrote it.
 */
export const toolKey = (name: string) => storableText(name);

/**
 * Records the definitions a server announced. A tool seen for the first time is taken as reviewed;
 * a definition that differs from the reviewed one marks the tool changed (it then asks again).
 * `viewer`: the user whose own connection to a per-user server listed them. Each user's connection may
 * be told its own definitions, so the change is then decided for that user alone (mcp-tool-views.ts);
 * the tool's row here keeps the admin's settings. Returns true when anything was written.
 */
export async function observeToolDefinitions(
  db: Db,
  serverId: string,
  definitions: ToolDefinition[],
  viewer: string | null = null,
): Promise<boolean> {
  let wrote = false;
  await transaction(db, function* (tx) {
    const rows = new Map(
      (yield* q(tx.select().from(mcpTools).where(eq(mcpTools.serverId, serverId)))).map((r) => [r.tool, r]),
    );
    for (const def of definitions) {
      const hash = definitionHash(def);
      const tool = toolKey(def.name);
      const row = rows.get(tool);
      if (!row) {
        yield* q(
          tx
            .insert(mcpTools)
            .values({ serverId, tool, reviewedHash: hash, reviewedDefinition: def })
            // An admin's first setting of this tool may have stored it meanwhile (Postgres): theirs stays.
            .onConflictDoNothing(),
        );
        wrote = true;
      } else if (viewer === null && (row.reviewedHash !== hash) !== row.changed) {
        yield* q(
          tx
            .update(mcpTools)
            .set({ changed: row.reviewedHash !== hash, updatedAt: new Date() })
            .where(and(eq(mcpTools.serverId, serverId), eq(mcpTools.tool, tool))),
        );
        wrote = true;
      }
    }
    if (viewer === null) return;
    const views = definitions.map((definition) => ({ key: toolKey(definition.name), definition }));
    if (yield* observeToolViews(tx, serverId, viewer, views)) wrote = true;
  });
  return wrote;
}

/** An admin's change of a tool; `definitions`: the hashes of the users' changed definitions they reviewed. */
export type ToolPatch = {
  enabled?: boolean;
  approval?: 'auto' | 'ask';
  reviewed?: boolean;
  definitions?: readonly string[];
};

/**
 * Admin changes; setting the approval or marking reviewed accepts the current definition: `current`, what
 * the admin's own connection lists now (null: it lists nothing). Of a per-user server it also accepts the
 * admin's own view (`admin`, their user id) and, marked reviewed, each user's view whose definition is
 * one of `definitions` (what the admin was shown); any other user's view stays changed.
 */
export async function updateToolSetting(
  db: Db,
  serverId: string,
  name: string,
  patch: ToolPatch,
  current: ToolDefinition | null,
  admin: string | null = null,
): Promise<typeof mcpTools.$inferSelect | null> {
  const tool = toolKey(name);
  const accepting = patch.approval !== undefined || patch.reviewed === true;
  const accept = accepting && current;
  const views = {
    hashes: patch.reviewed ? (patch.definitions ?? []) : [],
    own: accept && admin ? { userId: admin, hash: definitionHash(current) } : null,
  };
  const values = {
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.approval !== undefined ? { approval: patch.approval } : {}),
    ...(accept ? { reviewedHash: definitionHash(current), reviewedDefinition: current, changed: false } : {}),
    updatedAt: new Date(),
  };
  const where = and(eq(mcpTools.serverId, serverId), eq(mcpTools.tool, tool));
  // Read, then insert or update, as one step (two admins at once, or a new tool list arriving meanwhile).
  return transaction(db, function* (tx) {
    yield* lockStep(tx, `tool\n${serverId}\n${tool}`);
    const existing = first(yield* q(tx.select().from(mcpTools).where(where)));
    // A tool no one listed yet (every user's sighting stores its row) is not found.
    if (!existing && !current) return null;
    if (accepting) yield* acceptToolViews(tx, serverId, tool, views);
    if (!existing && current) {
      // The server's tool list may store this tool meanwhile (Postgres); then the update below applies.
      const inserted = yield* q(
        tx
          .insert(mcpTools)
          .values({
            serverId,
            tool,
            reviewedHash: definitionHash(current),
            reviewedDefinition: current,
            ...values,
          })
          .onConflictDoNothing()
          .returning(),
      );
      const row = first(inserted);
      if (row) return row;
    }
    return first(yield* q(tx.update(mcpTools).set(values).where(where).returning())) ?? null;
  });
}
