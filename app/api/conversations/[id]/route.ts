import { getDb } from '@/db/client';
import { getOwnConversation, updateConversation } from '@/db/queries/conversations';
import { deleteOwnConversation } from '@/app/_server/conversation-turns';
import { listMessages } from '@/db/queries/messages';
import { presentConversation, toolSettingsPatch } from '@/app/_server/conversation-settings';
import { requireUser } from '@/app/_server/session';
import { notFound } from '@/lib/errors';
import { readJson, route } from '@/lib/http';
import { ConversationPatchSchema } from '@/lib/schemas/conversations';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Ctx = { params: Promise<{ id: string }> };

export const GET = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  const db = getDb();
  const c = await getOwnConversation(db, user.id, id);
  if (!c) throw notFound('Conversation not found.');
  return Response.json({ ...(await presentConversation(c)), messages: await listMessages(db, c.id) });
});

/** Rename, change the tool settings and/or the conversation's instructions. */
export const PATCH = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  const { title, instructions, ...tools } = await readJson(req, ConversationPatchSchema);
  const c = await updateConversation(getDb(), user.id, id, {
    // A rename is the user's: a generated title never replaces it.
    ...(title ? { title, titleSource: 'user' as const } : {}),
    ...(instructions !== undefined ? { instructions: instructions?.trim() ? instructions : null } : {}),
    ...(await toolSettingsPatch(tools)),
  });
  if (!c) throw notFound('Conversation not found.');
  return Response.json(await presentConversation(c));
});

export const DELETE = route<Ctx>(async (req, { params }) => {
  const user = await requireUser(req);
  const { id } = await params;
  await deleteOwnConversation(user, id);
  return new Response(null, { status: 204 });
});
