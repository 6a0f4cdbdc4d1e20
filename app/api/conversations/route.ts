import { getDb } from '@/db/client';
import { listConversations } from '@/db/queries/conversations';
import { searchConversations } from '@/db/queries/conversation-search';
import { requireUser } from '@/app/_server/session';
import { parseWith, route } from '@/lib/http';
import { ListQuerySchema } from '@/lib/schemas/conversations';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const user = await requireUser(req);
  const query = parseWith(ListQuerySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  if (query.q?.trim()) {
    const hits = await searchConversations(getDb(), user.id, query.q, query.limit);
    return Response.json({
      items: hits.map((h) => ({ ...h, updatedAt: h.updatedAt.toISOString() })),
      nextCursor: null,
    });
  }
  const page = await listConversations(getDb(), user.id, { limit: query.limit, cursor: query.cursor });
  return Response.json({
    items: page.items.map((c) => ({ id: c.id, title: c.title, updatedAt: c.updatedAt.toISOString() })),
    nextCursor: page.nextCursor,
  });
});
