'use client';

import { Chat } from '@ai-sdk/react';
import { type ChatInit, DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import type { ChatMessage } from '@/lib/schemas/chat';

export type EngineCallbacks = {
  /** The request body for POST /api/chat (only the new message, or the approval answers). */
  body: (id: string, messages: ChatMessage[]) => object;
  onFinish: () => void;
  onData: NonNullable<ChatInit<ChatMessage>['onData']>;
};

/**
 * The AI SDK chat state machine (streams from POST /api/chat, tool approvals, regenerate, stop). It is
 * its own chunk, with `ai` and zod, imported by use-lazy-chat.ts once the page is interactive.
 */
export function createChat(
  id: string,
  messages: ChatMessage[],
  latest: { current: EngineCallbacks },
): Chat<ChatMessage> {
  return new Chat<ChatMessage>({
    id,
    messages,
    transport: new DefaultChatTransport<ChatMessage>({
      api: '/api/chat',
      prepareSendMessagesRequest: ({ id, messages }) => ({ body: latest.current.body(id, messages) }),
    }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: () => latest.current.onFinish(),
    onData: (part) => latest.current.onData(part),
  });
}
