import 'server-only';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { type Queryable, q } from '@/db/run';
import { mcpServers, mcpToolViews } from '@/db/tables';
import { definitionHash, type ToolDefinition } from '@/lib/mcp/tool-definition';

/**
 * What each user's own connection to a per-user server announces (table mcp_tool_views): a server may
 * describe a tool differently to each user (their own account, key), so whether a tool changed is
 * decided per user, against what that user was shown before. One user's listing never marks the tool
 * changed for another, nor clears another's mark.
 */

/** A user's view of a tool whose definition changed since it was taken as reviewed for them. */
export type ChangedToolView = {
  serverName: string;
  tool: string;
  userId: string;
  reviewedDefinition: Record<string, unknown>;
};

/**
 * A transaction step: records the definitions `userId`'s own connection listed (tools keyed by `key`).
 * A tool this user is shown for the first time is taken as reviewed for them; a definition that differs
 * from the one seen last is recorded as seen (the tool is then changed for them while it differs from
 * the reviewed one). Returns true when anything was written.
 */
export function* observeToolViews(
  tx: Queryable,
  serverId: string,
  userId: string,
  definitions: Array<{ key: string; definition: ToolDefinition }>,
): Generator<PromiseLike<unknown>, boolean, unknown> {
  const mine = and(eq(mcpToolViews.serverId, serverId), eq(mcpToolViews.userId, userId));
  const rows = new Map(
    (yield* q(
      tx.select({ tool: mcpToolViews.tool, seenHash: mcpToolViews.seenHash }).from(mcpToolViews).where(mine),
    )).map((r) => [r.tool, r.seenHash]),
  );
  let wrote = false;
  for (const { key, definition } of definitions) {
    const hash = definitionHash(definition);
    const seen = rows.get(key);
    if (seen === undefined) {
      yield* q(
        tx
          .insert(mcpToolViews)
          .values({
            serverId,
            userId,
            tool: key,
            reviewedHash: hash,
            reviewedDefinition: definition,
            seenHash: hash,
            seenDefinition: definition,
          })
          // The same user's listing in another instance or worker may have stored it meanwhile.
          .onConflictDoNothing(),
      );
      wrote = true;
    } else if (seen !== hash) {
      yield* q(
        tx
          .update(mcpToolViews)
          .set({ seenHash: hash, seenDefinition: definition, updatedAt: new Date() })
          .where(and(mine, eq(mcpToolViews.tool, key))),
      );
      wrote = true;
    }
  }
  return wrote;
}

/**
 * A transaction step: an admin's review of a per-user server's tool accepts what each user is shown of
 * it now (only their own connections see it; the admin reviews their own).
 */
export function* acceptToolViews(
  tx: Queryable,
  serverId: string,
  tool: string,
): Generator<PromiseLike<unknown>, void, unknown> {
  yield* q(
    tx
      .update(mcpToolViews)
      .set({
        reviewedHash: sql`${sql.identifier('seen_hash')}`,
        reviewedDefinition: sql`${sql.identifier('seen_definition')}`,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(mcpToolViews.serverId, serverId),
          eq(mcpToolViews.tool, tool),
          ne(mcpToolViews.reviewedHash, mcpToolViews.seenHash),
        ),
      ),
  );
}

/** Every user's view that changed since it was taken as reviewed (few: each waits for an admin's review). */
export async function listChangedToolViews(db: Db): Promise<ChangedToolView[]> {
  return db
    .select({
      serverName: mcpServers.name,
      tool: mcpToolViews.tool,
      userId: mcpToolViews.userId,
      reviewedDefinition: mcpToolViews.reviewedDefinition,
    })
    .from(mcpToolViews)
    .innerJoin(mcpServers, eq(mcpServers.id, mcpToolViews.serverId))
    .where(ne(mcpToolViews.reviewedHash, mcpToolViews.seenHash));
}
