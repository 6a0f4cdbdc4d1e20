import 'server-only';
import { and, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
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
 * A transaction step: an admin's review of a per-user server's tool accepts, of the users' views that
 * changed, those whose current definition is one the admin was shown: a hash in `hashes`, or the admin's
 * own view (`own`: their user id and what their own connection lists now). A view that changed again
 * since (another hash) stays changed; no other user's view is accepted blindly.
 */
export function* acceptToolViews(
  tx: Queryable,
  serverId: string,
  tool: string,
  accept: { hashes: readonly string[]; own: { userId: string; hash: string } | null },
): Generator<PromiseLike<unknown>, void, unknown> {
  const shown: SQL[] = [];
  if (accept.hashes.length > 0) shown.push(inArray(mcpToolViews.seenHash, [...accept.hashes]));
  if (accept.own)
    shown.push(
      and(eq(mcpToolViews.userId, accept.own.userId), eq(mcpToolViews.seenHash, accept.own.hash)) as SQL,
    );
  if (shown.length === 0) return;
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
          or(...shown),
        ),
      ),
  );
}

/**
 * One definition users are shown of a per-user server's tool that changed since it was reviewed for
 * them, with how many users are shown it (never who) and the reviewed one most of them had before.
 */
export type ChangedDefinition = {
  /** The tool's key (mcp-tools.ts toolKey). */
  tool: string;
  hash: string;
  definition: Record<string, unknown>;
  users: number;
  previous: Record<string, unknown>;
};

/** The distinct changed definitions users are shown of one server's tools, most users first. */
export async function listChangedDefinitions(db: Db, serverId: string): Promise<ChangedDefinition[]> {
  const rows = await db
    .select({
      tool: mcpToolViews.tool,
      seenHash: mcpToolViews.seenHash,
      seenDefinition: mcpToolViews.seenDefinition,
      reviewedHash: mcpToolViews.reviewedHash,
      reviewedDefinition: mcpToolViews.reviewedDefinition,
    })
    .from(mcpToolViews)
    .where(and(eq(mcpToolViews.serverId, serverId), ne(mcpToolViews.reviewedHash, mcpToolViews.seenHash)));
  type Group = ChangedDefinition & {
    before: Map<string, { n: number; definition: Record<string, unknown> }>;
  };
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const key = `${row.tool}\n${row.seenHash}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        tool: row.tool,
        hash: row.seenHash,
        definition: row.seenDefinition,
        users: 0,
        previous: row.reviewedDefinition,
        before: new Map(),
      };
      groups.set(key, group);
    }
    group.users++;
    const before = group.before.get(row.reviewedHash) ?? { n: 0, definition: row.reviewedDefinition };
    before.n++;
    group.before.set(row.reviewedHash, before);
  }
  return [...groups.values()]
    .map(({ before, ...group }) => ({
      ...group,
      previous: [...before.values()].reduce((a, b) => (b.n > a.n ? b : a)).definition,
    }))
    .sort((a, b) => b.users - a.users || (a.hash < b.hash ? -1 : 1));
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
