'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { hasPendingApprovals, SKIPPED_APPROVAL, skipApprovals } from '@/lib/chat/approvals';
import { notifyConversationsChanged } from '@/lib/conversation-events';
import type { ChatMessage, ToolProgress, ToolSettings } from '@/lib/schemas/chat';
import { isNoProviderError } from '@/lib/no-provider';
import { titleFrom } from '@/lib/title';
import { ChatHeader } from './chat-header';
import { Composer } from './composer';
import { ErrorNotice } from './error-notice';
import type { ResourceAttachment } from './attachment-chips';
import { requestBody } from './chat-request';
import { ConversationIdContext } from './turn-request-answer';
import { MessageItem } from './message-item';
import { preloadMarkdown } from './markdown';
import { MessageList } from './message-list';
import { NoProviderNotice } from './no-provider-notice';
import { useLazyChat } from './use-lazy-chat';
import { useEscapeStop } from './use-escape-stop';
import { useOlderMessages } from './use-older-messages';

export type ModelInfo = { id: string; label: string; provider: string; toolCalling: 'native' | 'prompt' };

type Props = {
  id: string;
  title: string;
  initialMessages: ChatMessage[];
  /** Position of the oldest message sent with the page, when older ones exist (loaded on scroll-up). */
  olderBefore?: number | null;
  isNew: boolean;
  models: ModelInfo[];
  initialModel: string | null;
  initialToolSettings: ToolSettings;
  /** No model is available: the notice says what to do, by the user's role. */
  noProvider: { admin: boolean } | null;
  /** A turn of this conversation runs on the server (the page re-attaches to it). */
  running?: boolean;
  /** Shown above an empty conversation (the admin's first-run setup checklist). */
  setup?: React.ReactNode;
};

/** A conversation: streamed answers from POST /api/chat, which receives only the new message. */
export function Chat({
  id,
  title,
  initialMessages,
  olderBefore = null,
  isNew,
  models,
  initialModel,
  initialToolSettings,
  noProvider,
  running = false,
  setup = null,
}: Props) {
  const router = useRouter();
  const [model, setModel] = useState(initialModel);
  const [toolSettings, setToolSettings] = useState<ToolSettings>(initialToolSettings);
  const toolSettingsRef = useRef(toolSettings);
  toolSettingsRef.current = toolSettings;
  const modelRef = useRef(initialModel);
  modelRef.current = model;
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());
  const [progress, setProgress] = useState<ReadonlyMap<string, ToolProgress>>(new Map());
  const createdRef = useRef(!isNew);
  const alwaysRef = useRef(new Set<string>());
  const {
    messages,
    setMessages,
    sendMessage,
    status,
    stop,
    error,
    regenerate,
    addToolApprovalResponse,
    bridge,
  } = useLazyChat(
    id,
    initialMessages,
    {
      body: (id, messages) => ({
        ...requestBody(id, messages, alwaysRef.current, createdRef.current ? null : toolSettingsRef.current),
        ...(modelRef.current ? { model: modelRef.current } : {}),
      }),
      onFinish: () => notifyConversationsChanged(),
      onData: (part) => {
        if (part.type === 'data-tool-progress' && part.id) {
          const key = part.id;
          setProgress((m) => new Map(m).set(key, part.data));
        }
      },
    },
    // Re-attach to a turn running on the server (a reload, another tab, after a network drop).
    running,
  );

  const prepend = useCallback(
    (older: ChatMessage[]) =>
      setMessages((current) => {
        const have = new Set(current.map((m) => m.id));
        return [...older.filter((m) => !have.has(m.id)), ...current];
      }),
    [setMessages],
  );
  const { hasOlder, loadOlder } = useOlderMessages(id, olderBefore, prepend);

  function onApproval(approvalId: string, approved: boolean, always: boolean) {
    if (always) alwaysRef.current.add(approvalId);
    void addToolApprovalResponse({
      id: approvalId,
      approved,
      ...(approved ? {} : { reason: 'The user denied this call.' }),
    });
  }

  const busy = status === 'submitted' || status === 'streaming';
  const firstText = messages[0]?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
  const headerTitle = !messages.length ? 'New chat' : isNew ? titleFrom(firstText) : title;
  const last = messages.at(-1);
  const storedError = !busy && !error && last?.role === 'assistant' ? last.metadata?.error : undefined;
  // The no-provider notice already says why there is no answer: not twice.
  const errorText = error?.message ?? storedError ?? '';
  const showError = Boolean(errorText) && !(noProvider && isNoProviderError(errorText));

  useEffect(preloadMarkdown, []);

  useEffect(() => {
    if (status === 'streaming' && !createdRef.current) {
      createdRef.current = true;
      notifyConversationsChanged();
    }
  }, [status]);

  function send(text: string, attachments: ResourceAttachment[] = []) {
    if (!createdRef.current && window.location.pathname !== `/c/${id}`) {
      window.history.replaceState(null, '', `/c/${id}`);
    }
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
    void sendMessage(resources.length ? { parts: [{ type: 'text', text }, ...resources] } : { text });
  }

  /**
   * Tool settings: kept for a new chat's first message, saved at once for an existing conversation —
   * only the fields that changed, so a stored limit above a since-lowered admin limit doesn't fail every toggle.
   */
  function changeToolSettings(next: ToolSettings) {
    const previous = toolSettingsRef.current;
    setToolSettings(next);
    if (!createdRef.current) return;
    const changed = Object.fromEntries(
      Object.entries(next).filter(
        ([key, value]) => JSON.stringify(value) !== JSON.stringify(previous[key as keyof ToolSettings]),
      ),
    );
    void fetch(`/api/conversations/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(changed),
    });
  }

  /** Stop ends the turn on the server (from any tab), then this tab's stream. */
  async function onStop() {
    const current = messages.at(-1);
    await Promise.all([fetch(`/api/chat/${id}/stop`, { method: 'POST' }).catch(() => null), stop()]);
    if (current?.role === 'assistant') setStopped((s) => new Set(s).add(current.id));
    notifyConversationsChanged();
  }
  useEscapeStop(busy, () => void onStop());

  // The message list is no live region (it would read every streamed word): one polite line instead.
  const lastStopped = last !== undefined && stopped.has(last.id);
  const announcement =
    status === 'submitted' ? 'Answering…' : status === 'streaming' ? '' : lastStopped ? 'Answer stopped' : '';

  return (
    <div className="flex h-full min-h-0 flex-col">
      {bridge}
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <ChatHeader
        conversationId={messages.length && (!isNew || createdRef.current) ? id : null}
        title={headerTitle}
      />
      <ConversationIdContext.Provider value={id}>
        <MessageList
          messages={messages}
          hasOlder={hasOlder}
          loadOlder={loadOlder}
          before={
            <>
              {noProvider && <NoProviderNotice admin={noProvider.admin} />}
              {messages.length === 0 && setup}
              {messages.length === 0 && (
                <div className="mt-24 text-center text-zinc-500">
                  <p className="text-2xl font-semibold text-zinc-700 dark:text-zinc-300">How can I help?</p>
                  <p className="mt-2 text-sm">Ask anything. Enter sends, Shift+Enter adds a line.</p>
                </div>
              )}
            </>
          }
          after={showError && <ErrorNotice error={errorText} onRetry={() => void regenerate()} />}
          renderItem={(m, i) => (
            <MessageItem
              message={m}
              streaming={busy && i === messages.length - 1}
              interrupted={Boolean(m.metadata?.interrupted && !m.metadata?.error) || stopped.has(m.id)}
              progress={progress}
              onApproval={i === messages.length - 1 && !busy ? onApproval : undefined}
              onRegenerate={i === messages.length - 1 && !busy ? () => void regenerate() : undefined}
              onEditResend={busy ? undefined : (messageId, text) => void sendMessage({ text, messageId })}
            />
          )}
        />
      </ConversationIdContext.Provider>
      <div className="border-t border-zinc-200 p-3 dark:border-zinc-800">
        <Composer
          busy={busy}
          onSend={send}
          onStop={() => void onStop()}
          models={models}
          model={model}
          onModelChange={setModel}
          toolSettings={toolSettings}
          onToolSettingsChange={changeToolSettings}
          draftKey={isNew && messages.length === 0 ? 'new' : id}
          onNewChat={() => {
            router.push('/');
            router.refresh();
          }}
        />
      </div>
    </div>
  );
}
