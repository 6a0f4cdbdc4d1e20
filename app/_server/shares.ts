import 'server-only';
import { generateId } from 'ai';
import { getDb } from '@/db/client';
import { createConversationWithMessages, getOwnConversation } from '@/db/queries/conversations';
import { listMessages } from '@/db/queries/messages';
import { createShare, getShareByToken } from '@/db/queries/shares';
import type { SessionUser } from '@/app/_server/session';
import { getEnv } from '@/lib/env';
import { notFound } from '@/lib/errors';
import type { PublicMessage } from '@/lib/schemas/share';
import { serializeForShare } from '@/lib/share/serialize';
import { newShareToken, SHARE_TOKEN } from '@/lib/share/token';

/** Snapshot the conversation as it is now; a later share makes a new token. */
export async function shareConversation(
  user: SessionUser,
  id: string,
  opts: { includeToolDetails: boolean; includeOwnerName: boolean; includeFiles: boolean },
) {
  const db = getDb();
  const conversation = await getOwnConversation(db, user.id, id);
  if (!conversation) throw notFound('Conversation not found.');
  const token = newShareToken();
  try {
    await createShare(db, {
      token,
      conversationId: id,
      userId: user.id,
      title: conversation.title,
      snapshot: serializeForShare(await listMessages(db, id), opts),
      includeToolDetails: opts.includeToolDetails,
      ownerName: opts.includeOwnerName ? user.name : null,
    });
  } catch (err) {
    // Deleted (in another tab) between the read above and this write: the link's conversation is gone.
    if (!(await getOwnConversation(db, user.id, id))) throw notFound('Conversation not found.');
    throw err;
  }
  return { token, url: `${getEnv().APP_URL}/share/${token}` };
}

export type PublicShare = {
  title: string;
  ownerName: string | null;
  createdAt: string;
  messages: PublicMessage[];
};

/** The public view of a share, or null (unknown, malformed, revoked, or its conversation deleted — all alike). */
export async function readShare(token: string): Promise<PublicShare | null> {
  if (!SHARE_TOKEN.test(token)) return null;
  const share = await getShareByToken(getDb(), token);
  if (!share) return null;
  return {
    title: share.title,
    ownerName: share.ownerName,
    createdAt: share.createdAt.toISOString(),
    messages: share.snapshot,
  };
}

/** "Continue in a new chat": the snapshot becomes a conversation of the viewer (new ids, no tool internals). */
export async function continueShare(user: SessionUser, token: string): Promise<{ id: string }> {
  const share = await readShare(token);
  if (!share) throw notFound('Share not found.');
  const id = generateId();
  await createConversationWithMessages(getDb(), {
    id,
    userId: user.id,
    title: share.title,
    model: null,
    messages: share.messages.map((m) => ({
      id: generateId(),
      role: m.role,
      // The copy's owner does not own the sharer's files: an attachment stays as its name.
      parts: m.parts.map((p) =>
        p.type === 'text'
          ? p
          : p.type === 'file'
            ? { type: 'text', text: `_(attached ${p.name})_` }
            : { type: 'text', text: `_(used ${p.server}.${p.tool})_` },
      ),
      // A message imported into the shared conversation, or cut short, stays marked in the copy.
      metadata:
        m.imported || m.interrupted
          ? { ...(m.imported ? { imported: true } : {}), ...(m.interrupted ? { interrupted: true } : {}) }
          : undefined,
    })),
  });
  return { id };
}
