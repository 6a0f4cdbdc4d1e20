'use client';

import type { Chat } from '@ai-sdk/react';
import type { ChatStatus } from 'ai';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EngineCallbacks } from './chat-engine';
import type { ChatMessage } from '@/lib/schemas/chat';

type Engine = Chat<ChatMessage>;
type Snapshot = { messages: ChatMessage[]; status: ChatStatus; error: Error | undefined };

/**
 * useChat, with the AI SDK (`ai`, @ai-sdk/react, zod: ~110 KB gzipped) out of the page's first-load
 * JavaScript. Until its chunk (chat-engine.ts) is there — it is requested as soon as the page is
 * interactive — the conversation shows the messages it was rendered with and is idle; an action taken
 * in that moment (send, regenerate, load older messages) waits for the chunk. Afterwards this mirrors
 * the engine's messages, status and error like useChat does. One engine per mount (the page keys Chat by id).
 */
export function useLazyChat(id: string, initialMessages: ChatMessage[], callbacks: EngineCallbacks) {
  const latest = useRef(callbacks);
  latest.current = callbacks;
  const [chat, setChat] = useState<Engine | null>(null);
  const loading = useRef<Promise<Engine> | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the engine is created once per mount, from the first props
  const load = useCallback(() => {
    loading.current ??= import('./chat-engine').then((m) => {
      const engine = m.createChat(id, initialMessages, latest);
      setChat(engine);
      return engine;
    });
    return loading.current;
  }, []);

  useEffect(() => {
    void load();
    return () => void loading.current?.then((engine) => engine.stop());
  }, [load]);

  const [snapshot, setSnapshot] = useState<Snapshot>({
    messages: initialMessages,
    status: 'ready',
    error: undefined,
  });
  useEffect(() => {
    if (!chat) return;
    const publish = () =>
      setSnapshot((s) =>
        s.messages === chat.messages && s.status === chat.status && s.error === chat.error
          ? s
          : { messages: chat.messages, status: chat.status, error: chat.error },
      );
    const unsubscribe = [
      chat['~registerMessagesCallback'](publish),
      chat['~registerStatusCallback'](publish),
      chat['~registerErrorCallback'](publish),
    ];
    publish();
    return () => {
      for (const u of unsubscribe) u();
    };
  }, [chat]);

  return {
    ...snapshot,
    sendMessage: (...args: Parameters<Engine['sendMessage']>) =>
      load().then((engine) => engine.sendMessage(...args)),
    regenerate: () => load().then((engine) => engine.regenerate()),
    stop: () => (loading.current ? loading.current.then((engine) => engine.stop()) : Promise.resolve()),
    addToolApprovalResponse: (...args: Parameters<Engine['addToolApprovalResponse']>) =>
      load().then((engine) => engine.addToolApprovalResponse(...args)),
    setMessages: useCallback(
      (update: (current: ChatMessage[]) => ChatMessage[]) =>
        load().then((engine) => {
          engine.messages = update(engine.messages);
        }),
      [load],
    ),
  };
}
