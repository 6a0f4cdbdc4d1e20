'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { hasPendingApprovals, SKIPPED_APPROVAL, skipApprovals } from '@/lib/chat/approvals';
import { notifyConversationsChanged, notifyTitleChanged, onTitleChanged } from '@/lib/conversation-events';
import type { ChatMessage, ToolProgress, ToolSettings } from '@/lib/schemas/chat';
import { isNoProviderError } from '@/lib/no-provider';
import { titleFrom } from '@/lib/title';
import { AppContextNotes } from './app-context-notes';
import { ChatHeader } from './chat-header';
import { type AppContextNote, type AppHost, AppHostContext } from './mcp-app-host';
import { Composer } from './composer';
import { ErrorNotice } from './error-notice';
import type { ResourceAttachment } from './attachment-chips';
import type { UploadedFile } from './use-uploads';
import { requestBody } from './chat-request';
import { ConversationIdContext } from './turn-request-answer';
import { MessageItem } from './message-item';
import { preloadMarkdown } from './markdown';
import { MessageList } from './message-list';
import { NoProviderNotice } from './no-provider-notice';
import { useLazyChat } from './use-lazy-chat';
import { useEscapeStop } from './use-escape-stop';
import { useOlderMessages } from './use-older-messages';
import type { Versions } from './version-switcher';

/** A message id made here (crypto.getRandomValues also works on a plain-http origin, unlike randomUUID). */
const newMessageId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

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

/** An answer that went through (not failed, not stopped): the first one is followed by a generated title. */
const answered = (m: ChatMessage) =>
  m.role === 'assistant' && !m.metadata?.error && !m.metadata?.interrupted && m.parts.length > 0;

/**
 * Waits (server side, bounded) for the title generated after the first answer, then shows it everywhere.
 * True once the title is no longer the automatic first words (nothing more to wait for).
 */
async function fetchTitle(id: string): Promise<boolean> {
  try {
    const res = await fetch(`/api/conversations/${encodeURIComponent(id)}/summary?wait=1`, {
      cache: 'no-store',
    });
    if (!res.ok) return false;
    const { title, titleSource } = (await res.json()) as { title?: unknown; titleSource?: unknown };
    if (typeof title === 'string' && title) notifyTitleChanged(id, title);
    return titleSource !== 'auto';
  } catch {
    // The first words stay.
    return false;
  }
}

/** A conversation: streamed answers from POST /api/chat, which receives only the new message. */
export function Chat({
  id,
  title,
  initialMessages,
  olderBefore = null,
  initialSiblings = {},
  isNew,
  models,
  initialModel,
  initialToolSettings,
  noProvider,
  running = false,
  setup = null,
  assistant = null,
  initialInstructions = null,
  assistants = [],
}: Props) {
  const t = useTranslations('assistants');
  const tc = useTranslations('chat');
  const [instructions, setInstructions] = useState(initialInstructions ?? '');
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
  // The same as state, for what shows only once the conversation exists (the header's actions).
  const [created, setCreated] = useState(!isNew);
  const markCreated = useCallback(() => {
    createdRef.current = true;
    setCreated(true);
  }, []);
  const awaitingTitle = useRef(!initialMessages.some(answered));
  const [liveTitle, setLiveTitle] = useState<string | null>(null);
  useEffect(() => onTitleChanged((changed, next) => changed === id && setLiveTitle(next)), [id]);
  const alwaysRef = useRef(new Set<string>());
  const [siblings, setSiblings] = useState<Readonly<Record<string, string[]>>>(initialSiblings);
  const mergeSiblings = useCallback(
    (more: Record<string, string[]>) =>
      setSiblings((s) => (Object.keys(more).length ? { ...s, ...more } : s)),
    [],
  );
  const [appContexts, setAppContexts] = useAppContexts(id);
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
        // A new chat's first message names its assistant (the server seeds the conversation from it).
        ...(!createdRef.current && assistant ? { assistantId: assistant.id } : {}),
      }),
      onFinish: ({ isError, messages: current }) => {
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
    (older: ChatMessage[], olderSiblings: Record<string, string[]>) => {
      mergeSiblings(olderSiblings);
      return setMessages((current) => {
        const have = new Set(current.map((m) => m.id));
        return [...older.filter((m) => !have.has(m.id)), ...current];
      });
    },
    [setMessages, mergeSiblings],
  );
  const { hasOlder, loadOlder } = useOlderMessages(id, olderBefore, prepend);

  /**
   * After a turn: the versions of the newest messages of the path (an edit or a regenerate just added
   * one), read back from the server, which numbered them.
   */
  async function refreshVersions() {
    try {
      const res = await fetch(`/api/conversations/${encodeURIComponent(id)}/messages?limit=4`, {
        cache: 'no-store',
      });
      if (res.ok)
        mergeSiblings(((await res.json()) as { siblings?: Record<string, string[]> }).siblings ?? {});
    } catch {
      // The counter shows after the next reload.
    }
  }

  /** Previous version / Next version: the path from that version down replaces what follows its parent. */
  async function selectVersion(current: string, target: string): Promise<boolean> {
    try {
      const res = await fetch(`/api/conversations/${encodeURIComponent(id)}/branch`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messageId: target }),
      });
      if (!res.ok) return false;
      const branch = (await res.json()) as { messages: ChatMessage[]; siblings: Record<string, string[]> };
      mergeSiblings(branch.siblings);
      await setMessages((list) => {
        const at = list.findIndex((m) => m.id === current);
        return at < 0 ? list : [...list.slice(0, at), ...branch.messages];
      });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Edit: the edited text is a new version beside the message; the old one and its answers stay. The
   * counter shows the new version at once (the server numbers versions the same way: in order written).
   */
  async function editMessage(messageId: string, text: string) {
    // The new version keeps the message's attached files; only its text changes.
    const kept = (messages.find((m) => m.id === messageId)?.parts ?? []).flatMap((p) =>
      p.type === 'file'
        ? [{ type: 'file' as const, mediaType: p.mediaType, url: p.url, filename: p.filename }]
        : [],
    );
    const editId = newMessageId();
    const versions = [...(siblings[messageId] ?? [messageId]), editId];
    mergeSiblings(Object.fromEntries(versions.map((v) => [v, versions])));
    await setMessages((list) => {
      const at = list.findIndex((m) => m.id === messageId);
      return at < 0 ? list : list.slice(0, at);
    });
    await sendMessage({ id: editId, role: 'user', parts: [{ type: 'text', text }, ...kept] });
  }

  function onApproval(approvalId: string, approved: boolean, always: boolean) {
    if (always) alwaysRef.current.add(approvalId);
    void addToolApprovalResponse({
      id: approvalId,
      approved,
      ...(approved ? {} : { reason: 'The user denied this call.' }),
    });
  }

  const busy = status === 'submitted' || status === 'streaming';
  // The version switchers, built when the versions or `busy` change (not on every streamed token, which
  // would re-render every message that has versions).
  const selectRef = useRef(selectVersion);
  selectRef.current = selectVersion;
  const versionsById = useMemo(() => {
    const out: Record<string, Versions> = {};
    for (const [messageId, ids] of Object.entries(siblings))
      if (ids.length > 1)
        out[messageId] = {
          ids,
          index: ids.indexOf(messageId) + 1,
          count: ids.length,
          onSelect: busy ? undefined : (target) => selectRef.current(messageId, target),
        };
    return out;
  }, [siblings, busy]);
  const firstText = messages[0]?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
  const headerTitle = !messages.length
    ? tc('newChat')
    : (liveTitle ?? (isNew ? titleFrom(firstText) : title));
  const appName = useTranslations('app')('name');
  useEffect(() => {
    if (!messages.length) return;
    const before = document.title;
    document.title = `${headerTitle} · ${appName}`;
    return () => {
      document.title = before;
    };
  }, [headerTitle, appName, messages.length]);
  const last = messages.at(-1);
  const storedError = !busy && !error && last?.role === 'assistant' ? last.metadata?.error : undefined;
  // The no-provider notice already says why there is no answer: not twice.
  const errorText = error?.message ?? storedError ?? '';
  const showError = Boolean(errorText) && !(noProvider && isNoProviderError(errorText));

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

  function send(
    text: string,
    attachments: ResourceAttachment[] = [],
    files: UploadedFile[] = [],
    fromApp?: AppContextNote,
  ) {
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
                    <p className="text-2xl font-semibold text-zinc-700 dark:text-zinc-300">
                      {tc('emptyTitle')}
                    </p>
                    <p className="mt-2 text-sm">{tc('emptyHint')}</p>
                    {assistants.length > 0 && (
                      <nav aria-label={t('startWith')} className="mt-6 flex flex-wrap justify-center gap-2">
                        {assistants.map((a) => (
                          <Link
                            key={a.id}
                            href={`/?assistant=${encodeURIComponent(a.id)}`}
                            className="rounded-full border border-zinc-300 px-3 py-1 text-sm text-zinc-700 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800"
                          >
                            {t('newChatWith', { name: a.name })}
                          </Link>
                        ))}
                      </nav>
                    )}
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
                onEditResend={busy ? undefined : (messageId, text) => void editMessage(messageId, text)}
                versions={versionsById[m.id]}
              />
            )}
          />
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

/** Context apps shared and not yet sent, kept for this tab across a reload (sessionStorage). */
function useAppContexts(id: string) {
  const key = `mcp-chat:app-context:${id}`;
  const [contexts, setContexts] = useState<ReadonlyMap<string, AppContextNote>>(() => new Map());
  useEffect(() => {
    try {
      const stored = JSON.parse(window.sessionStorage.getItem(key) ?? '[]') as Array<
        [string, AppContextNote]
      >;
      if (Array.isArray(stored) && stored.length) setContexts(new Map(stored));
    } catch {
      /* nothing kept */
    }
  }, [key]);
  const update = useCallback(
    (
      next:
        | ReadonlyMap<string, AppContextNote>
        | ((m: ReadonlyMap<string, AppContextNote>) => ReadonlyMap<string, AppContextNote>),
    ) =>
      setContexts((current) => {
        const value = typeof next === 'function' ? next(current) : next;
        try {
          if (value.size) window.sessionStorage.setItem(key, JSON.stringify([...value]));
          else window.sessionStorage.removeItem(key);
        } catch {
          /* storage off: this page only */
        }
        return value;
      }),
    [key],
  );
  return [contexts, update] as const;
}
