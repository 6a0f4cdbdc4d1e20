import { getDb } from '@/db/client';
import { getOwnConversation } from '@/db/queries/conversations';
import { deleteOwnConversation } from '@/app/_server/conversation-turns';
import { listMessages } from '@/db/queries/messages';
import { patchConversation, presentConversation } from '@/app/_server/conversation-settings';
import { requireUser } from '@/app/_server/session';
import { notFound } from '@/lib/errors';
import { parseWith, readJson, route } from '@/lib/http';
import { ConversationGetQuerySchema, ConversationPatchSchema } from '@/lib/schemas/conversations';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

/** The conversation with its messages; `?messages=0`: without them (a tab reading its tool settings again). */
export const GET = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  const query = parseWith(
    ConversationGetQuerySchema,
    Object.fromEntries(new URL(req.url).searchParams),
    'query',
  );
  const db = getDb();
  const c = await getOwnConversation(db, user.id, id);
  if (!c) throw notFound('Conversation not found.');
  const conversation = await presentConversation(c);
  if (query.messages === '0')
    return Response.json(conversation, { headers: { 'cache-control': 'no-store' } });
  return Response.json({ ...conversation, messages: await listMessages(db, c.id) });
});

/** Rename, change the tool settings (`toggles`: switches applied to the stored ones) and/or the instructions. */
export const PATCH = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  return Response.json(await patchConversation(user, id, await readJson(req, ConversationPatchSchema)));
});

export const DELETE = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  await deleteOwnConversation(user, id);
  return new Response(null, { status: 204 });
});
