import { getDb } from '@/db/client';
import { getOwnConversation } from '@/db/queries/conversations';
import { listMessagePage } from '@/db/queries/messages';
import { siblingsOf } from '@/db/queries/message-tree';
import { requireUser } from '@/app/_server/session';
import { notFound } from '@/lib/errors';
import { parseWith, route } from '@/lib/http';
import { MessagePageQuerySchema } from '@/lib/schemas/conversations';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

/** Older messages of the selected path, a page at a time (the chat page loads them on scroll-up). */
export const GET = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  const query = parseWith(MessagePageQuerySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  const db = getDb();
  if (!(await getOwnConversation(db, user.id, id))) throw notFound('Conversation not found.');
  const page = await listMessagePage(db, id, { limit: query.limit, before: query.before });
  // Along the selected path; `siblings` lists the versions of each message that has more than one.
  const siblings = await siblingsOf(
    db,
    id,
    page.messages.map((m) => m.id),
  );
  return Response.json(
    { ...page, siblings },
    {
      headers: { 'cache-control': 'no-store' },
    },
  );
});
