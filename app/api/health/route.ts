import { getDb } from '@/db/client';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async () => {
  getDb();
  return Response.json({ ok: true });
});
