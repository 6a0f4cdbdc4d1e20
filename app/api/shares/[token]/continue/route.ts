import { requireUser } from '@/app/_server/session';
import { continueShare } from '@/app/_server/shares';
import { route } from '@/lib/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route<{ params: Promise<{ token: string }> }>(async (req, { params }) => {
  const user = await requireUser(req);
  return Response.json(await continueShare(user, (await params).token), { status: 201 });
});
