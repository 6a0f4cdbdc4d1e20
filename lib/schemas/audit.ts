import * as z from '@/lib/zod';

/** Retention pools of the audit log (db/schema.ts `audit_log.kind`). */
export const AUDIT_KINDS = ['admin', 'refused', 'anonymous'] as const;

/** GET /api/admin/audit and /admin/audit: optionally one kind only. */
export const AuditQuerySchema = z.object({ kind: z.enum(AUDIT_KINDS).optional() });
