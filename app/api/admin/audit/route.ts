import { getDb } from '@/db/client';
import { listAudit } from '@/db/queries/audit';
import { requireAdmin } from '@/app/_server/session';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The newest 200 audit entries: admin actions and refused attempts. */
export const GET = route(async (req) => {
  await requireAdmin(req);
  return Response.json({ items: listAudit(getDb()), nextCursor: null });
});
