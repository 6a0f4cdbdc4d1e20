'use client';

import type { Chat } from '@ai-sdk/react';
import { createElement, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import type { EngineBridge, EngineCallbacks, EngineSnapshot } from './chat-engine';
import type { ChatMessage } from '@/lib/schemas/chat';

type Engine = Chat<ChatMessage>;
type Loaded = { engine: Engine; Bridge: typeof EngineBridge };

/**
 * useChat, with the AI SDK (`ai`, @ai-sdk/react, zod: ~110 KB gzipped) out of the page's first-load
 * JavaScript. Until its chunk (chat-engine.ts) is there — it is requested as soon as the page is
 * interactive — the conversation shows the messages it was rendered with and is idle; an action taken
 * in that moment (send, regenerate, load older messages) waits for the chunk. Afterwards the returned
 * `bridge` element (render it once) subscribes through the SDK's useChat and mirrors its messages,
 * status and error; with `resume` it re-attaches to a turn running on the server. One engine per
 * mount (the page keys Chat by id).
 */
export function useLazyChat(
  id: string,
  initialMessages: ChatMessage[],
  callbacks: EngineCallbacks,
  resume: boolean,
) {
  const latest = useRef(callbacks);
  latest.current = callbacks;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const loading = useRef<Promise<Engine> | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the engine is created once per mount, from the first props
  const load = useCallback(() => {
    loading.current ??= import('./chat-engine').then((m) => {
      const engine = m.createChat(id, initialMessages, latest);
      setLoaded({ engine, Bridge: m.EngineBridge });
      return engine;
    });
    return loading.current;
  }, []);

  useEffect(() => {
    void load();
    // Leaving the page only disconnects: the turn goes on on the server.
    return () => void loading.current?.then((engine) => engine.stop());
  }, [load]);

  const [snapshot, setSnapshot] = useState<EngineSnapshot>({
    messages: initialMessages,
    status: 'ready',
    error: undefined,
  });
  const onSnapshot = useCallback(
    (next: EngineSnapshot) =>
      setSnapshot((s) =>
        s.messages === next.messages && s.status === next.status && s.error === next.error ? s : next,
      ),
    [],
  );
  const bridge: ReactNode = loaded
    ? createElement(loaded.Bridge, { chat: loaded.engine, resume, onSnapshot })
    : null;

  return {
    ...snapshot,
    bridge,
    sendMessage: (...args: Parameters<Engine['sendMessage']>) =>
      load().then((engine) => engine.sendMessage(...args)),
    // Once: a second click that comes before the first one's request shows (a double click on Regenerate
    // or Retry) would start the answer again, leaving an interrupted one beside it.
    regenerate: (...args: Parameters<Engine['regenerate']>) =>
      load().then((engine) =>
        engine.status === 'submitted' || engine.status === 'streaming'
          ? undefined
          : engine.regenerate(...args),
      ),
    stop: () => (loading.current ? loading.current.then((engine) => engine.stop()) : Promise.resolve()),
    /** Follows the turn running on the server, if one runs (else nothing changes). */
    resumeStream: () => load().then((engine) => engine.resumeStream()),
    /** Forgets the last request's error (the notice closed). */
    clearError: () => loading.current?.then((engine) => engine.clearError()),
    addToolApprovalResponse: (...args: Parameters<Engine['addToolApprovalResponse']>) =>
      load().then((engine) => engine.addToolApprovalResponse(...args)),
    setMessages: useCallback(
      (update: (current: ChatMessage[]) => ChatMessage[]) =>
        load().then((engine) => {
          engine.messages = update(engine.messages);
          // Shown in the same tick (not after the bridge's next render), so state set alongside it
          // (e.g. "no older pages left") never runs ahead of the messages it describes.
          onSnapshot({ messages: engine.messages, status: engine.status, error: engine.error });
        }),
      [load, onSnapshot],
    ),
  };
}
