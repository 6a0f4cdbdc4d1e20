import 'server-only';
import { and, desc, eq, gte, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { first, lockStep, type Queryable, q, transaction } from '@/db/run';
import { auditLog } from '@/db/tables';
import { storableText } from '@/lib/stored-text';

type AuditRow = typeof auditLog.$inferSelect;
export type AuditKind = AuditRow['kind'];
export type AuditEntry = Pick<
  typeof auditLog.$inferInsert,
  'userId' | 'email' | 'action' | 'target' | 'outcome' | 'detail'
>;

/**
 * Rows kept per kind. Each kind is pruned only among itself, so a flood of anonymous (or refused)
 * requests can fill its own pool but never evicts what admins did.
 */
export const AUDIT_KEEP: Record<AuditKind, number> = { admin: 50_000, refused: 10_000, anonymous: 10_000 };
/** Identical failures closer together than this share one row (count and last-seen time). */
export const REPEAT_WINDOW_MS = 60_000;
const PRUNE_EVERY = 500;
const inserts: Record<AuditKind, number> = { admin: 0, refused: 0, anonymous: 0 };

/** No actor: anonymous. A signed-in actor refused: refused. Otherwise an action of an admin (ok or failed). */
export function auditKind(entry: Pick<AuditEntry, 'userId' | 'outcome'>): AuditKind {
  if (!entry.userId) return 'anonymous';
  return entry.outcome === 'denied' ? 'refused' : 'admin';
}

/** Adds one to the latest identical failure seen within the window; false when there is none. */
function* countRepeat(tx: Queryable, entry: AuditEntry, now: Date) {
  // Same actor and outcome means the same kind; the filter leads with the columns of audit_log_repeat_idx.
  const latest = first(
    yield* q(
      tx
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(
          and(
            eq(auditLog.action, entry.action),
            entry.userId ? eq(auditLog.userId, entry.userId) : isNull(auditLog.userId),
            gte(auditLog.lastAt, new Date(now.getTime() - REPEAT_WINDOW_MS)),
            eq(auditLog.outcome, entry.outcome),
            entry.target == null ? isNull(auditLog.target) : eq(auditLog.target, entry.target),
          ),
        )
        .orderBy(desc(auditLog.lastAt))
        .limit(1),
    ),
  );
  if (!latest) return false;
  yield* q(
    tx
      .update(auditLog)
      .set({ count: sql`${auditLog.count} + 1`, lastAt: now })
      .where(eq(auditLog.id, latest.id)),
  );
  return true;
}

/** Keeps the newest AUDIT_KEEP[kind] rows of one kind (by last activity); other kinds are untouched. */
export async function pruneAudit(db: Db, kind: AuditKind): Promise<void> {
  const [cutoff] = await db
    .select({ id: auditLog.id, lastAt: auditLog.lastAt })
    .from(auditLog)
    .where(eq(auditLog.kind, kind))
    .orderBy(desc(auditLog.lastAt), desc(auditLog.id))
    .limit(1)
    .offset(AUDIT_KEEP[kind]);
  if (!cutoff) return;
  const older = or(
    lt(auditLog.lastAt, cutoff.lastAt),
    and(eq(auditLog.lastAt, cutoff.lastAt), lte(auditLog.id, cutoff.id)),
  );
  await db.delete(auditLog).where(and(eq(auditLog.kind, kind), older));
}

/**
 * Records an entry: a repeated identical failure updates its row; each kind is pruned every 500 new rows.
 * Its target and detail may quote a server or a URL: a NUL there is kept as U+FFFD (lib/stored-text.ts).
 */
export async function recordAudit(db: Db, given: AuditEntry, now = new Date()): Promise<void> {
  const entry = { ...given, target: storableText(given.target), detail: storableText(given.detail) };
  const kind = auditKind(entry);
  const row = { ...entry, detail: entry.detail?.slice(0, 2000) ?? null, kind, at: now, lastAt: now };
  // Failures at once (a flood, from any instance) count into one row: "find the repeat, else insert" as one
  // step per identical failure.
  const inserted = await transaction(db, function* (tx) {
    if (entry.outcome !== 'ok') {
      yield* lockStep(
        tx,
        `audit\n${entry.action}\n${entry.userId ?? ''}\n${entry.outcome}\n${entry.target ?? ''}`,
      );
      if (yield* countRepeat(tx, entry, now)) return false;
    }
    yield* q(tx.insert(auditLog).values(row));
    return true;
  });
  if (inserted && ++inserts[kind] % PRUNE_EVERY === 0) await pruneAudit(db, kind);
}

const toItem = (e: AuditRow) => ({ ...e, at: e.at.toISOString(), lastAt: e.lastAt.toISOString() });
export type AuditItem = ReturnType<typeof toItem>;

/**
 * The most recently active entries, newest first. Without a kind: the newest `limit` of each kind,
 * so a flood of one kind cannot push the others off the list either.
 */
export async function listAudit(
  db: Db,
  opts: { kind?: AuditKind; limit?: number } = {},
): Promise<AuditItem[]> {
  const limit = opts.limit ?? 200;
  const kinds: AuditKind[] = opts.kind ? [opts.kind] : ['admin', 'refused', 'anonymous'];
  const lists = await Promise.all(
    kinds.map((kind) =>
      db
        .select()
        .from(auditLog)
        .where(eq(auditLog.kind, kind))
        .orderBy(desc(auditLog.lastAt), desc(auditLog.id))
        .limit(limit),
    ),
  );
  return lists
    .flat()
    .sort((a, b) => b.lastAt.getTime() - a.lastAt.getTime() || b.id - a.id)
    .map(toItem);
}

export async function countAudit(db: Db, kind?: AuditKind): Promise<number> {
  const row = first(
    await db
      .select({ n: sql<number>`count(*)` })
      .from(auditLog)
      .where(kind ? eq(auditLog.kind, kind) : undefined),
  );
  return Number(row?.n ?? 0);
}
