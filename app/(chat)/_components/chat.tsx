'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { notifyConversationsChanged, onTitleChanged } from '@/lib/conversation-events';
import type { ChatMessage, ToolProgress, ToolSettings } from '@/lib/schemas/chat';
import { isNoProviderError } from '@/lib/no-provider';
import { titleFrom } from '@/lib/title';
import { AppContextNotes } from './app-context-notes';
import { ChatEmptyState } from './chat-empty-state';
import { ChatHeader } from './chat-header';
import { AppHostContext } from './mcp-app-host';
import { MarkdownAfterHydration, preloadMarkdown } from './markdown';
import { markdownAfterHydration } from './markdown-budget';
import { Composer } from './composer';
import { ErrorNotice } from './error-notice';
import { requestBody } from './chat-request';
import { ConversationIdContext } from './turn-request-answer';
import { answered, fetchTitle } from './conversation-title';
import { MessageItem } from './message-item';
import { MessageList } from './message-list';
import { NoProviderNotice } from './no-provider-notice';
import { useLazyChat } from './use-lazy-chat';
import { useOlderMessages } from './use-older-messages';
import { useAppContexts } from './use-app-contexts';
import { useApprovalAnswers } from './use-approval-answers';
import { useChatSend } from './use-chat-send';
import { useDocumentTitle } from './use-document-title';
import { useMessageVersions } from './use-message-versions';
import { useModelChoice } from './use-model-choice';
import { useSendOutcome } from './use-send-outcome';
import { useNewChat } from './use-new-chat';
import { useStopAnswer } from './use-stop-answer';
import { useToolSettings } from './use-tool-settings';
import { useVersionActions } from './use-version-actions';

export type ModelInfo = { id: string; label: string; provider: string; toolCalling: 'native' | 'prompt' };

type Props = {
  id: string;
  title: string;
  initialMessages: ChatMessage[];
  /** Id of the oldest message sent with the page, when older ones exist (loaded on scroll-up). */
  olderBefore?: string | null;
  /** The versions of each message sent with the page that has more than one (edits, regenerations). */
  initialSiblings?: Record<string, string[]>;
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
  /** The assistant the conversation starts (a new chat) or started (a saved one) with. */
  assistant?: { id: string; name: string } | null;
  /** The conversation's own instructions (a new chat: its assistant's). */
  initialInstructions?: string | null;
  /** A new chat without an assistant: the assistants offered to start with. */
  assistants?: Array<{ id: string; name: string }>;
};

/** A conversation: streamed answers from POST /api/chat, which receives only the new message. */
export function Chat({
  id,
  title,
  initialMessages,
  olderBefore = null,
  initialSiblings = {},
  isNew,
  models: initialModels,
  initialModel,
  initialToolSettings,
  noProvider,
  running = false,
  setup = null,
  assistant = null,
  initialInstructions = null,
  assistants = [],
}: Props) {
  const tc = useTranslations('chat');
  const [instructions, setInstructions] = useState(initialInstructions ?? '');
  const newChat = useNewChat();
  const { models, model, setModel, modelRef, recheck } = useModelChoice(initialModels, initialModel);
  const [progress, setProgress] = useState<ReadonlyMap<string, ToolProgress>>(new Map());
  const createdRef = useRef(!isNew);
  // The same as state, for what shows only once the conversation exists (the header's actions).
  const [created, setCreated] = useState(!isNew);
  const { toolControl, firstMessage } = useToolSettings(id, initialToolSettings, createdRef);
  const markCreated = useCallback(() => {
    if (!createdRef.current) {
      createdRef.current = true;
      firstMessage.created();
    }
    setCreated(true);
  }, [firstMessage]);
  const sendOutcome = useSendOutcome(id, isNew);
  const awaitingTitle = useRef(!initialMessages.some(answered));
  // Answers the server leaves to the browser to draw as Markdown (markdown-budget.ts), one set per mount.
  const [drawnLater] = useState(() => markdownAfterHydration(initialMessages));
  const [liveTitle, setLiveTitle] = useState<string | null>(null);
  useEffect(() => onTitleChanged((changed, next) => changed === id && setLiveTitle(next)), [id]);
  const { siblings, mergeSiblings, refreshVersions } = useMessageVersions(id, initialSiblings);
  const approvals = useApprovalAnswers(id, () => engine, mergeSiblings);
  const [appContexts, setAppContexts] = useAppContexts(id);
  const engine = useLazyChat(
    id,
    initialMessages,
    {
      body: (id, messages) => ({
        ...approvals.sending(
          requestBody(
            id,
            messages,
            approvals.always,
            createdRef.current ? null : firstMessage.settings(),
            createdRef.current,
          ),
        ),
        ...(modelRef.current ? { model: modelRef.current } : {}),
        // A new chat's first message names its assistant (the server seeds the conversation from it).
        ...(!createdRef.current && assistant ? { assistantId: assistant.id } : {}),
      }),
      onFinish: ({ isError, error, messages: current }) => {
        sendOutcome.finished(isError);
        void approvals.finished(error);
        // An answer that streamed to its end was stored with its conversation (a fast one may never
        // be seen "streaming").
        if (!isError) markCreated();
        notifyConversationsChanged();
        void refreshVersions();
        // After the first answer the server asks the model for a title: wait for it, then show it.
        if (awaitingTitle.current && current.some(answered))
          void fetchTitle(id).then((settled) => {
            if (settled) awaitingTitle.current = false;
          });
      },
      onAccepted: sendOutcome.accepted,
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
  const { messages, setMessages, sendMessage, status, stop, error, regenerate, bridge } = engine;

  const { hasOlder, loadOlder } = useOlderMessages(id, olderBefore, setMessages, mergeSiblings);

  const busy = status === 'submitted' || status === 'streaming';
  const { versionsById, editMessage } = useVersionActions({
    id,
    messages,
    setMessages,
    sendMessage,
    siblings,
    mergeSiblings,
    busy,
  });
  const firstText = messages[0]?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
  const headerTitle = !messages.length
    ? tc('newChat')
    : (liveTitle ?? (isNew ? titleFrom(firstText) : title));
  useDocumentTitle(headerTitle, messages.length);
  const last = messages.at(-1);
  const storedError = !busy && !error && last?.role === 'assistant' ? last.metadata?.error : undefined;
  // The no-provider notice already says why there is no answer: not twice.
  const errorText = error?.message ?? approvals.failure ?? storedError ?? '';
  const showError = Boolean(errorText) && !(noProvider && isNoProviderError(errorText));
  // A model refused since the page loaded (removed by an admin): the picker falls back to one still offered.
  useEffect(() => {
    if (error) recheck(error.message);
  }, [error, recheck]);

  useEffect(preloadMarkdown, []);

  // The conversation exists on the server once its first answer streams (or, for an answer that came in one
  // burst, has arrived): the header then offers Usage, Share and Export.
  const hasAnswer = messages.some((m) => m.role === 'assistant');
  useEffect(() => {
    if ((status === 'streaming' || hasAnswer) && !createdRef.current) {
      markCreated();
      notifyConversationsChanged();
    }
  }, [status, hasAnswer, markCreated]);

  const { send, appHost } = useChatSend({
    id,
    messages,
    setMessages,
    sendMessage,
    appContexts,
    setAppContexts,
    busy,
    onSending: sendOutcome.sending,
  });

  const { stopped, onStop } = useStopAnswer(id, messages, stop, busy, setMessages);

  // The message list is no live region (it would read every streamed word): one polite line instead.
  const lastStopped = last !== undefined && stopped.has(last.id);
  const announcement =
    status === 'submitted' ? tc('answering') : status === 'streaming' ? '' : lastStopped ? tc('stopped') : '';

  return (
    <div className="flex h-full min-h-0 flex-col">
      {bridge}
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <ChatHeader
        conversationId={messages.length && created ? id : null}
        title={headerTitle}
        assistantName={assistant?.name ?? null}
        instructions={instructions}
        onInstructionsSaved={setInstructions}
      />
      <ConversationIdContext.Provider value={id}>
        <AppHostContext.Provider value={appHost}>
          <MarkdownAfterHydration.Provider value={drawnLater}>
            <MessageList
              messages={messages}
              hasOlder={hasOlder}
              loadOlder={loadOlder}
              before={
                <>
                  {noProvider && <NoProviderNotice admin={noProvider.admin} />}
                  {messages.length === 0 && setup}
                  {messages.length === 0 && <ChatEmptyState assistants={assistants} />}
                </>
              }
              // An answer to a tool call that did not count has no Retry: a regenerate would start the answer over.
              after={
                showError && (
                  <ErrorNotice
                    error={errorText}
                    onRetry={approvals.failure ? undefined : () => void regenerate()}
                    onClose={approvals.dismiss}
                  />
                )
              }
              renderItem={(m, i) => (
                <MessageItem
                  message={m}
                  streaming={busy && i === messages.length - 1}
                  interrupted={Boolean(m.metadata?.interrupted && !m.metadata?.error) || stopped.has(m.id)}
                  progress={progress}
                  onApproval={i === messages.length - 1 && !busy ? approvals.onApproval : undefined}
                  onRegenerate={i === messages.length - 1 && !busy ? () => void regenerate() : undefined}
                  onEditResend={busy ? undefined : (messageId, text) => void editMessage(messageId, text)}
                  versions={versionsById[m.id]}
                />
              )}
            />
          </MarkdownAfterHydration.Provider>
        </AppHostContext.Provider>
      </ConversationIdContext.Provider>
      <div className="border-t border-zinc-200 p-3 dark:border-zinc-800">
        <AppContextNotes
          notes={[...appContexts]}
          onDrop={(toolCallId) =>
            setAppContexts((m) => {
              const next = new Map(m);
              next.delete(toolCallId);
              return next;
            })
          }
        />
        <Composer
          busy={busy}
          onSend={send}
          onStop={() => void onStop()}
          models={models}
          model={model}
          onModelChange={setModel}
          toolControl={toolControl}
          draftKey={isNew && messages.length === 0 ? 'new' : id}
          onNewChat={() => newChat(true)}
        />
      </div>
    </div>
  );
}
