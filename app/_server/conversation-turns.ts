import 'server-only';
import { getDb } from '@/db/client';
import { deleteConversation, getOwnConversation } from '@/db/queries/conversations';
import { listMessages } from '@/db/queries/messages';
import { turnResponse } from '@/app/_server/chat-turn';
import { fileIdsOf, releaseFiles } from '@/app/_server/files';
import { readTurn, stopTurn } from '@/app/_server/running-turns';
import type { SessionUser } from '@/app/_server/session';
import { notFound } from '@/lib/errors';

function assertOwn(user: SessionUser, id: string): void {
  if (!getOwnConversation(getDb(), user.id, id)) throw notFound('Conversation not found.');
}

/** GET /api/chat/[id]/stream: the running turn replayed from its start, then live; 204 when none runs. */
export function resumeTurn(user: SessionUser, id: string): Response {
  assertOwn(user, id);
  const stream = readTurn(id);
  return stream ? turnResponse(stream) : new Response(null, { status: 204 });
}

/** POST /api/chat/[id]/stop: stops the turn from any tab; answers once its partial answer is stored. */
export async function stopOwnTurn(user: SessionUser, id: string): Promise<{ stopped: boolean }> {
  assertOwn(user, id);
  return { stopped: await stopTurn(id) };
}

/**
 * Deleting a conversation stops its running turn first, so no answer is written after the delete; then
 * its attachments go too, unless another message (of another conversation of the owner) still refers to them.
 */
export async function deleteOwnConversation(user: SessionUser, id: string): Promise<void> {
  assertOwn(user, id);
  await stopTurn(id);
  const attached = listMessages(getDb(), id).flatMap((m) => fileIdsOf(m.parts));
  if (!deleteConversation(getDb(), user.id, id)) throw notFound('Conversation not found.');
  await releaseFiles(attached);
}
