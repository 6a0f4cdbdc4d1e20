'use client';

import { useMemo, useRef } from 'react';
import { hasPendingApprovals, SKIPPED_APPROVAL, skipApprovals } from '@/lib/chat/approvals';
import type { ChatMessage } from '@/lib/schemas/chat';
import type { ResourceAttachment } from './attachment-chips';
import type { AppContextNote, AppHost } from './mcp-app-host';
import type { useAppContexts } from './use-app-contexts';
import type { useLazyChat } from './use-lazy-chat';
import type { UploadedFile } from './use-uploads';

type LazyChat = ReturnType<typeof useLazyChat>;
type AppContexts = ReturnType<typeof useAppContexts>;

type Input = {
  id: string;
  messages: ChatMessage[];
  setMessages: LazyChat['setMessages'];
  sendMessage: LazyChat['sendMessage'];
  appContexts: AppContexts[0];
  setAppContexts: AppContexts[1];
  busy: boolean;
  /** The text of a message the user sends (not an app's), before it goes. */
  onSending: (text: string) => void;
};

/**
 * Sending a message: the composer's (with the resources and files attached to it and the context apps
 * shared), and an MCP App's, through the AppHost the chat lends the apps in its tool cards.
 */
export function useChatSend({
  id,
  messages,
  setMessages,
  sendMessage,
  appContexts,
  setAppContexts,
  busy,
  onSending,
}: Input) {
  function send(
    text: string,
    attachments: ResourceAttachment[] = [],
    files: UploadedFile[] = [],
    fromApp?: AppContextNote,
  ) {
    const resources = attachments.map((a) => ({
      type: 'data-resource' as const,
      data: { server: a.server, uri: a.uri, name: a.name },
    }));
    // Calls still awaiting approval are skipped by the server when a new message arrives; show it here too.
    const last = messages.at(-1);
    if (last?.role === 'assistant' && hasPendingApprovals(last.parts)) {
      void setMessages((current) =>
        current.map((m) =>
          m.id === last.id ? { ...m, parts: skipApprovals(m.parts, SKIPPED_APPROVAL) } : m,
        ),
      );
    }
    // Context apps shared goes with this message, marked with its app; a message an app sent is marked too.
    const contexts = [...appContexts.values()].map((data) => ({ type: 'data-app-context' as const, data }));
    const mark = fromApp
      ? [{ type: 'data-app-message' as const, data: { server: fromApp.server, tool: fromApp.tool } }]
      : [];
    if (contexts.length) setAppContexts(new Map());
    const attached = files.map((f) => ({
      type: 'file' as const,
      mediaType: f.mediaType,
      url: f.url,
      filename: f.name,
    }));
    const extra = [...resources, ...attached, ...contexts, ...mark];
    if (!fromApp) onSending(text);
    void sendMessage(
      extra.length ? { parts: [...(text ? [{ type: 'text' as const, text }] : []), ...extra] } : { text },
    );
  }

  const sendRef = useRef(send);
  sendRef.current = send;
  const busyRef = useRef(busy);
  busyRef.current = busy;
  const appHost = useMemo<AppHost>(
    () => ({
      conversationId: id,
      sendFromApp: (note) => {
        if (busyRef.current) return false;
        sendRef.current(note.text, [], [], note);
        return true;
      },
      shareContext: (toolCallId, note) => setAppContexts((m) => new Map(m).set(toolCallId, note)),
    }),
    [id, setAppContexts],
  );

  return { send, appHost };
}
