import { getDb } from '@/db/client';
import { listAudit } from '@/db/queries/audit';
import { requireAdmin } from '@/app/_server/session';
import { parseWith, route } from '@/lib/http';
import { AuditQuerySchema } from '@/lib/schemas/audit';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The 200 most recently active entries of each kind (admin actions, refused, anonymous), or of `?kind=`. */
export const GET = route(async (req) => {
  await requireAdmin(req);
  const query = parseWith(AuditQuerySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return Response.json({ items: await listAudit(getDb(), { kind: query.kind }), nextCursor: null });
});
