import 'server-only';
import { desc, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { auditLog } from '@/db/schema';

export type AuditEntry = Omit<typeof auditLog.$inferInsert, 'id' | 'at'>;

const KEEP = 10_000;
let writes = 0;

/** Appends an entry; the log keeps the newest 10,000 (pruned every 500 writes). */
export function recordAudit(db: Db, entry: AuditEntry): void {
  db.insert(auditLog).values({ ...entry, detail: entry.detail?.slice(0, 2000) ?? null }).run();
  if (++writes % 500 === 0) {
    const cutoff = db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1).offset(KEEP).get();
    if (cutoff) db.delete(auditLog).where(lt(auditLog.id, cutoff.id + 1)).run();
  }
}

export function listAudit(db: Db, limit = 200) {
  return db
    .select()
    .from(auditLog)
    .orderBy(desc(auditLog.id))
    .limit(limit)
    .all()
    .map((e) => ({ ...e, at: e.at.toISOString() }));
}

export function countAudit(db: Db): number {
  return db.select({ n: sql<number>`count(*)` }).from(auditLog).get()?.n ?? 0;
}
