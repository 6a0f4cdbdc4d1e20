import 'server-only';
import { getDb } from '@/db/client';
import { conversationExists, getOwnConversation } from '@/db/queries/conversations';
import { listMessages, saveAssistantMessage, saveUserMessage } from '@/db/queries/messages';
import type { SessionUser } from '@/app/_server/session';
import { type ChatMessage, runChatTurn } from '@/lib/chat/run-turn';
import { getEnv } from '@/lib/env';
import { AppError, notFound } from '@/lib/errors';
import { envProviderConfigured, NO_PROVIDER_MESSAGE, resolveModel } from '@/lib/providers';
import { type ChatRequest, titleFrom } from '@/lib/schemas/chat';

const INSTRUCTIONS =
  'You are a helpful assistant in a self-hosted chat app. Answer in Markdown. Be accurate and concise.';

/** One chat turn: store the user's message first, then stream the model's answer and store it when it ends. */
export async function startChatTurn(user: SessionUser, body: ChatRequest, abortSignal: AbortSignal): Promise<Response> {
  const db = getDb();
  const env = getEnv();
  const conversation = getOwnConversation(db, user.id, body.id);
  if (!conversation && conversationExists(db, body.id)) throw notFound('Conversation not found.');

  const configured = envProviderConfigured(env);
  const resolved = configured ? resolveModel(env, body.model ?? conversation?.model ?? undefined) : null;
  const text = body.message.parts.map((p) => p.text).join('\n');
  const outcome = saveUserMessage(db, {
    conversationId: body.id,
    userId: user.id,
    title: titleFrom(text),
    model: resolved?.id ?? null,
    message: { id: body.message.id, role: 'user', parts: body.message.parts.map(({ type, text }) => ({ type, text })) },
  });
  if (outcome === 'not-a-user-message') {
    throw new AppError('bad_request', 'That message id belongs to an answer.', { 'message.id': 'is not a user message' });
  }
  if (!resolved) throw new AppError('unavailable', NO_PROVIDER_MESSAGE);

  return runChatTurn({
    model: resolved.model,
    modelId: resolved.id,
    instructions: INSTRUCTIONS,
    history: listMessages(db, body.id) as ChatMessage[],
    abortSignal,
    save: (message) => saveAssistantMessage(db, body.id, message as never),
  });
}
