import 'server-only';
import { getDb } from '@/db/client';
import { deleteConversation, getOwnConversation } from '@/db/queries/conversations';
import { listMessagePage, listMessageTree } from '@/db/queries/messages';
import { turnResponse } from '@/app/_server/chat-turn';
import { fileIdsOf } from '@/app/_server/message-attachments';
import { releaseFiles } from '@/app/_server/files';
import { isTurnRunning, readTurn, stopTurn } from '@/app/_server/running-turns';
import { selectVersion, siblingsOf } from '@/db/queries/message-tree';
import type { ChatMessage } from '@/lib/schemas/chat';
import type { SessionUser } from '@/app/_server/session';
import { AppError, notFound } from '@/lib/errors';

async function assertOwn(user: SessionUser, id: string): Promise<void> {
  if (!(await getOwnConversation(getDb(), user.id, id))) throw notFound('Conversation not found.');
}

/** GET /api/chat/[id]/stream: the running turn replayed from its start, then live; 204 when none runs. */
export async function resumeTurn(user: SessionUser, id: string): Promise<Response> {
  await assertOwn(user, id);
  const stream = await readTurn(id);
  return stream ? turnResponse(stream) : new Response(null, { status: 204 });
}

/** What Stop answers: whether it cut an answer short, and the conversation's last answer as stored. */
export type StopResult = { stopped: boolean; answer: ChatMessage | null };

/**
 * POST /api/chat/[id]/stop: stops the turn from any tab; answers once its answer is stored, with that
 * answer, so the tab shows exactly what was stored. A Stop that meets the answer's natural end may come
 * too late to cut it (the turn ended, or had stored its answer, before the abort): then the answer is
 * stored complete and `stopped` is false. A turn whose answer is not stored within the wait is stopped,
 * with no answer.
 */
export async function stopOwnTurn(user: SessionUser, id: string): Promise<StopResult> {
  await assertOwn(user, id);
  const outcome = await stopTurn(id);
  // Not stored in time: the last stored answer may be an older version of this one (an answer continued
  // after its approvals is stored again at its end), so none is sent; the tab keeps what it shows, stopped.
  if (outcome === 'unsettled') return { stopped: true, answer: null };
  const [last] = (await listMessagePage(getDb(), id, { limit: 1 })).messages;
  const answer = last?.role === 'assistant' ? last : null;
  return {
    stopped: outcome === 'stored' && (answer === null || answer.metadata?.interrupted === true),
    answer,
  };
}

/**
 * Deleting a conversation stops its running turn first, so no answer is written after the delete; then
 * its attachments go too, unless another message (of another conversation of the owner) still refers to them.
 */
export async function deleteOwnConversation(user: SessionUser, id: string): Promise<void> {
  await assertOwn(user, id);
  await stopTurn(id);
  // Every version's files, not only the selected path's.
  const attached = (await listMessageTree(getDb(), id)).flatMap((m) => fileIdsOf(m.parts));
  if (!(await deleteConversation(getDb(), user.id, id))) throw notFound('Conversation not found.');
  await releaseFiles(attached);
}

/**
 * PUT /api/conversations/[id]/branch: selects a version of a message. Refused while a turn runs there
 * (its answer ends the path it started on). Returns the path from that message down to its new leaf,
 * with the versions of each of those messages that has more than one.
 */
export async function selectOwnVersion(
  user: SessionUser,
  id: string,
  messageId: string,
): Promise<{ messages: ChatMessage[]; siblings: Record<string, string[]> }> {
  await assertOwn(user, id);
  if (await isTurnRunning(id))
    throw new AppError('conflict', 'An answer is still being written here. Wait for it, or stop it first.');
  const db = getDb();
  const messages = await selectVersion(db, id, messageId);
  if (!messages) throw notFound('Message not found.');
  return {
    messages,
    siblings: await siblingsOf(
      db,
      id,
      messages.map((m) => m.id),
    ),
  };
}
