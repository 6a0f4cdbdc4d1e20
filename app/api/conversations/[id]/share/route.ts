import { requireUser } from '@/app/_server/session';
import { shareConversation } from '@/app/_server/shares';
import { readJson, route } from '@/lib/http';
import { ShareCreateSchema } from '@/lib/schemas/chat';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const user = await requireUser(req);
  const hasBody = Number(req.headers.get('content-length') ?? '0') > 0;
  const opts = hasBody ? await readJson(req, ShareCreateSchema) : ShareCreateSchema.parse({});
  return Response.json(shareConversation(user, (await params).id, opts), { status: 201 });
});
