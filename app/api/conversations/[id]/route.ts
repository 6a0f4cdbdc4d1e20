import { getDb } from '@/db/client';
import { deleteConversation, getOwnConversation, renameConversation } from '@/db/queries/conversations';
import { listMessages } from '@/db/queries/messages';
import { requireUser } from '@/app/_server/session';
import { notFound } from '@/lib/errors';
import { readJson, route } from '@/lib/http';
import { RenameSchema } from '@/lib/schemas/chat';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

export const GET = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  const db = getDb();
  const c = getOwnConversation(db, user.id, id);
  if (!c) throw notFound('Conversation not found.');
  return Response.json({
    id: c.id,
    title: c.title,
    model: c.model,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    messages: listMessages(db, c.id),
  });
});

export const PATCH = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  const { title } = await readJson(req, RenameSchema);
  const c = renameConversation(getDb(), user.id, id, title);
  if (!c) throw notFound('Conversation not found.');
  return Response.json({ id: c.id, title: c.title, updatedAt: c.updatedAt.toISOString() });
});

export const DELETE = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  if (!deleteConversation(getDb(), user.id, id)) throw notFound('Conversation not found.');
  return new Response(null, { status: 204 });
});
