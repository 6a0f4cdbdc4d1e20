import 'server-only';
import { randomUUID } from 'node:crypto';
import type { UIMessageChunk } from 'ai';
import type { Db } from '@/db/client';
import {
  allowToolsInConversation,
  type ConversationPatch,
  loadConversation,
  updateConversation,
} from '@/db/queries/conversations';
import {
  changeMessage,
  saveAssistantMessage,
  saveUserMessage,
  textOfParts,
} from '@/db/queries/message-writes';
import { listMessages } from '@/db/queries/messages';
import { toolSettingsPatch } from '@/app/_server/conversation-settings';
import { attachmentGone, fileIdsOf } from '@/app/_server/message-attachments';
import type { Conversation } from '@/app/_server/turn-toolkit';
import {
  applyApprovals,
  hasPendingApprovals,
  refuseAnswered,
  SKIPPED_APPROVAL,
  skipApprovals,
} from '@/lib/chat/approvals';
import { AppError, notFound } from '@/lib/errors';
import type { ChatMessage, ChatPart } from '@/lib/schemas/chat';
import type { ChatPost } from '@/lib/schemas/chat-post';
import { titleFrom } from '@/lib/title';

/**
 * The stages of a chat turn between admission and the model, each with plain inputs and outputs and
 * the database handle passed in, so each can be tested alone (turn-stages.test.ts):
 *
 *   admit (turn-admission.ts) → claim (running-turns.ts) → load → persist input → build tools
 *   (turn-toolkit.ts) → run (lib/chat/run-turn.ts, with endState) → persist answer
 *
 * chat-turn.ts strings them together; nothing here knows about HTTP or the running-turn registry.
 */

export type Loaded = Awaited<ReturnType<typeof loadConversation>>;

/** Load: the conversation and its messages in one read; another user's conversation does not exist. */
export async function loadTurn(db: Db, userId: string, body: ChatPost): Promise<Loaded> {
  const loaded = await loadConversation(db, userId, body.id);
  if (loaded.takenByOther || (!loaded.row && 'approvals' in body)) throw notFound('Conversation not found.');
  return loaded;
}

export type PersistedInput = {
  /** What the model sees: the stored history ending with the new message (or the answered approvals). */
  history: ChatMessage[];
  /** An answer continued after approvals: its stream starts with a replay of what it already holds. */
  continued?: ChatMessage;
  /** The conversation's tool settings as they are now (stored, plus this request's changes). */
  settings: TurnToolSettings;
};

export type TurnToolSettings = Pick<
  Conversation,
  | 'id'
  | 'allowedTools'
  | 'toolMode'
  | 'toolServers'
  | 'disabledTools'
  | 'maxSteps'
  | 'maxToolCalls'
  | 'instructions'
  | 'temperature'
>;

/**
 * Persist input: store what the request brings before anything else happens. An approval answer is
 * applied to the stored answer in one transaction (of two answers to one approval only the first
 * counts: 409); a message is stored (new, or an edit: a new version beside the edited one; nothing is dropped),
 * after resolving calls still awaiting approval as "skipped".
 */
export async function persistInput(
  db: Db,
  input: {
    userId: string;
    body: ChatPost;
    loaded: Loaded;
    /** The model the turn runs on, stored with the conversation (null: none is configured). */
    modelId: string | null;
    /** The user message's parts as stored (attached resources read now). */
    userParts: () => Promise<ChatPart[]>;
    /** A new conversation's settings from its assistant (the request's own tool settings override them). */
    seed?: ConversationPatch;
  },
): Promise<PersistedInput> {
  const { userId, body, loaded, modelId } = input;
  const patch = {
    ...(!loaded.row ? input.seed : undefined),
    ...('tools' in body && body.tools ? await toolSettingsPatch(body.tools) : {}),
  };
  const stored: TurnToolSettings = loaded.row ?? {
    id: body.id,
    allowedTools: [],
    toolMode: 'auto',
    toolServers: null,
    disabledTools: [],
    maxSteps: null,
    maxToolCalls: null,
    instructions: null,
    temperature: null,
  };
  let history = loaded.messages;

  if ('approvals' in body) {
    const last = history.at(-1);
    refuseAnswered(history, body.approvals);
    if (last?.role !== 'assistant')
      throw new AppError('bad_request', 'Nothing in this conversation awaits approval.');
    let alwaysAllow: string[] = [];
    const answered = await changeMessage(db, body.id, last.id, (message) => {
      const applied = applyApprovals(message.parts, body.approvals);
      alwaysAllow = applied.alwaysAllow;
      return { ...message, parts: applied.parts };
    });
    if (!answered) throw new AppError('conflict', 'This answer changed meanwhile. Reload the conversation.');
    await allowToolsInConversation(db, body.id, alwaysAllow);
    const allowedTools = [...new Set([...stored.allowedTools, ...alwaysAllow])];
    return {
      history: [...history.slice(0, -1), answered],
      continued: answered,
      settings: { ...stored, allowedTools, ...patch },
    };
  }

  // Known to the client, gone here: deleted meanwhile. A retry or regenerate does not bring it back.
  if (body.existing && !loaded.row) throw notFound('Conversation not found.');
  history = await skipPendingApprovals(db, body.id, history);
  // A message of attachments only is titled by their names.
  const text =
    textOfParts(body.message.parts) ||
    body.message.parts.map((p) => (p.type === 'file' ? (p.filename ?? '') : '')).join(' ');
  const message: ChatMessage = { id: body.message.id, role: 'user', parts: await input.userParts() };
  const outcome = await saveUserMessage(db, {
    conversationId: body.id,
    userId,
    title: titleFrom(text),
    model: modelId,
    isNew: !loaded.row,
    modelChanged: Boolean(loaded.row && modelId && loaded.row.model !== modelId),
    message,
    parentId: body.parentId,
    files: fileIdsOf(message.parts),
  });
  if (outcome === 'not-yours') throw notFound('Conversation not found.');
  if (outcome === 'missing-file') throw attachmentGone();
  // A follow-up to a conversation that is not there (deleted meanwhile, in another tab, say): it is gone.
  if (outcome === 'unknown-parent' && !loaded.row) throw notFound('Conversation not found.');
  if (outcome === 'unknown-parent')
    throw new AppError('bad_request', 'The message this one follows does not exist.', {
      parentId: 'is not a message of this conversation',
    });
  if (outcome === 'changed') throw editUnderStoredId();
  if (outcome === 'not-a-user-message')
    throw new AppError('bad_request', 'That message id belongs to an answer.', {
      'message.id': 'is not a user message',
    });
  if (Object.keys(patch).length) await updateConversation(db, userId, body.id, patch);
  // The message now ends the selected path. Unless it simply followed the path as loaded (a retry or
  // regenerate of a stored message, an edit beside one), read that path back.
  const followed =
    outcome === 'appended' && (body.parentId === undefined || body.parentId === (history.at(-1)?.id ?? null));
  return {
    history: followed ? [...history, message] : await listMessages(db, body.id),
    settings: { ...stored, ...patch },
  };
}

/** A stored message id sent with other text: 409, and nothing changes (not even a running answer). */
export function editUnderStoredId(): AppError {
  return new AppError(
    'conflict',
    'This message is stored with other text. Send an edit as a new message (a new id, with parentId naming the message before it): the old version stays.',
    { 'message.id': 'names a stored message with other text' },
  );
}

/**
 * A new message while tool calls still await approval: those calls are resolved now, stored as denied
 * ("skipped"), so no card stays "awaiting approval" and the model sees why they did not run.
 */
async function skipPendingApprovals(
  db: Db,
  conversationId: string,
  history: ChatMessage[],
): Promise<ChatMessage[]> {
  const last = history.at(-1);
  if (last?.role !== 'assistant' || !hasPendingApprovals(last.parts)) return history;
  const skipped = await changeMessage(db, conversationId, last.id, (stored) => ({
    ...stored,
    parts: skipApprovals(stored.parts, SKIPPED_APPROVAL),
  }));
  return skipped ? [...history.slice(0, -1), skipped] : history;
}

/**
 * Persist answer: the answer, however it ended, is stored once, as the answer to `parentId` (the turn's
 * user message; a new version beside earlier answers to it), and ends the selected path.
 */
export async function persistAnswer(
  db: Db,
  conversationId: string,
  message: ChatMessage,
  parentId?: string | null,
): Promise<void> {
  await saveAssistantMessage(db, conversationId, message, parentId);
}

/** Never a user message without an answer: a turn that cannot run stores its failure as one (with Retry). */
export async function persistFailure(
  db: Db,
  conversationId: string,
  error: string,
  parentId?: string | null,
): Promise<void> {
  await saveAssistantMessage(db, conversationId, failure(error), parentId);
}

function failure(error: string): ChatMessage {
  return {
    id: `failed-${randomUUID()}`,
    role: 'assistant',
    parts: [],
    metadata: { createdAt: Date.now(), interrupted: true, error },
  };
}

/**
 * The end state (interrupted, error) is known only once the answer is stored: it goes out last, so a
 * client that replays the turn after its end shows what was stored.
 */
export function withEndState(
  stream: ReadableStream<UIMessageChunk>,
  ended: () => ChatMessage['metadata'],
): ReadableStream<UIMessageChunk> {
  return stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      flush(controller) {
        const end = ended();
        if (end?.interrupted || end?.error) {
          controller.enqueue({
            type: 'message-metadata',
            messageMetadata: { interrupted: end.interrupted, ...(end.error ? { error: end.error } : {}) },
          });
        }
      },
    }),
  );
}
