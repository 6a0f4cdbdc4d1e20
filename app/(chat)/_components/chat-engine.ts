'use client';

import { Chat, useChat } from '@ai-sdk/react';
import {
  type ChatInit,
  type ChatStatus,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
} from 'ai';
import { useEffect } from 'react';
import type { ChatMessage } from '@/lib/schemas/chat';

export type EngineCallbacks = {
  /** The request body for POST /api/chat (only the new message, or the approval answers). */
  body: (id: string, messages: ChatMessage[]) => object;
  /**
   * The turn's stream ended (however it ended): `isError` if with an error (the conversation may not have
   * been stored), and that `error`; `messages` as they are then.
   */
  onFinish: (outcome: { isError: boolean; error?: Error; messages: ChatMessage[] }) => void;
  onData: NonNullable<ChatInit<ChatMessage>['onData']>;
  /**
   * The server took a request of this chat: it answered 2xx (a new message is stored), or 5xx (it failed
   * after taking it: with no model provider, say, the message is stored with the error). A 4xx is a refusal
   * (a rate limit, bad input): nothing was stored; neither was anything when no answer came (offline).
   */
  onAccepted: () => void;
};

export type EngineSnapshot = { messages: ChatMessage[]; status: ChatStatus; error: Error | undefined };

/**
 * The AI SDK chat state machine (streams from POST /api/chat, tool approvals, regenerate, stop, and
 * resuming a running turn from GET /api/chat/[id]/stream). It is its own chunk, with `ai` and zod,
 * imported by use-lazy-chat.ts once the page is interactive.
 */
export function createChat(
  id: string,
  messages: ChatMessage[],
  latest: { current: EngineCallbacks },
): Chat<ChatMessage> {
  const chat: Chat<ChatMessage> = new Chat<ChatMessage>({
    id,
    messages,
    transport: new DefaultChatTransport<ChatMessage>({
      api: '/api/chat',
      prepareSendMessagesRequest: ({ id, messages }) => ({ body: latest.current.body(id, messages) }),
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        if (res.ok || res.status >= 500) latest.current.onAccepted();
        return res;
      },
    }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: ({ isError, messages }) => latest.current.onFinish({ isError, error: chat.error, messages }),
    onData: (part) => latest.current.onData(part),
  });
  return chat;
}

/**
 * Subscribes to the engine with the AI SDK's own hook (`useChat({ chat })`, its public API) and hands
 * each snapshot up; `resume` lets the hook re-attach to a turn that runs on the server (on mount, and
 * after a network drop when the page becomes visible again).
 */
export function EngineBridge({
  chat,
  resume,
  onSnapshot,
}: {
  chat: Chat<ChatMessage>;
  resume: boolean;
  onSnapshot: (snapshot: EngineSnapshot) => void;
}) {
  const { messages, status, error } = useChat<ChatMessage>({ chat, resume });
  useEffect(() => onSnapshot({ messages, status, error }), [messages, status, error, onSnapshot]);
  return null;
}
