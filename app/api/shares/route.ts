import { getDb } from '@/db/client';
import { listUserShares } from '@/db/queries/shares';
import { requireUser } from '@/app/_server/session';
import { getEnv } from '@/lib/env';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const user = await requireUser(req);
  const base = getEnv().APP_URL;
  const items = (await listUserShares(getDb(), user.id)).map((s) => ({
    ...s,
    url: `${base}/share/${s.token}`,
    createdAt: s.createdAt.toISOString(),
  }));
  return Response.json({ items, nextCursor: null });
});
