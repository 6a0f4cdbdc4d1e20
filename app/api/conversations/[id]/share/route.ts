import { requireUser } from '@/app/_server/session';
import { shareConversation } from '@/app/_server/shares';
import { readOptionalJson, route } from '@/lib/http';
import { ShareCreateSchema } from '@/lib/schemas/share';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const user = await requireUser(req);
  const opts = await readOptionalJson(req, ShareCreateSchema);
  return Response.json(await shareConversation(user, (await params).id, opts), { status: 201 });
});
