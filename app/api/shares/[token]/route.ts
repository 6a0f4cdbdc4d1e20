import { getDb } from '@/db/client';
import { deleteShare } from '@/db/queries/shares';
import { requireUser } from '@/app/_server/session';
import { notFound } from '@/lib/errors';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const DELETE = route<{ params: Promise<{ token: string }> }>(async (req, { params }) => {
  const user = await requireUser(req);
  if (!(await deleteShare(getDb(), user.id, (await params).token))) throw notFound('Share not found.');
  return new Response(null, { status: 204 });
});
