'use client';

import { Ban, Check, type LucideIcon, X } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { Fragment, memo, useContext, useEffect, useRef, useState } from 'react';
import { AttachmentChips, type ResourceAttachment } from './attachment-chips';
import { EditMessage } from './edit-message';
import { FileAttachments, type ShownFile } from './file-attachments';
import { ImportedMark } from './imported-mark';
import { MessageActions } from './message-actions';
import type { ChatMessage, ToolPart, ToolProgress } from '@/lib/schemas/chat';
import { Markdown, MarkdownAfterHydration } from './markdown';
import { ToolCallCard, toolRef } from './tool-call-card';
import { type CardState, cardState } from './tool-result';
import { isRequestPart, type RequestPart } from './turn-request';
import { VersionSwitcher, type Versions } from './version-switcher';

type Props = {
  message: ChatMessage;
  streaming: boolean;
  interrupted: boolean;
  progress?: ReadonlyMap<string, ToolProgress>;
  onApproval?: (approvalId: string, approved: boolean, always: boolean) => void;
  /** Offered on the last answer when idle. */
  onRegenerate?: () => void;
  /** Offered on user messages when idle. */
  onEditResend?: (messageId: string, text: string) => void;
  /** The message has other versions (edits, regenerated answers): Previous version / Next version. */
  versions?: Versions;
};

/** The MCP resources attached to a user message (read-only chips). */
const resourcesOf = (message: ChatMessage): ResourceAttachment[] =>
  message.parts.flatMap((p) =>
    p.type === 'data-resource'
      ? [
          {
            server: p.data.server,
            uri: p.data.uri,
            name: p.data.name ?? p.data.uri,
            updatedAt: p.data.updatedAt,
          },
        ]
      : [],
  );

/** What MCP Apps put in a user message: the app that sent it, and context apps shared for the model. */
function AppParts({ message }: { message: ChatMessage }) {
  const t = useTranslations('mcpApps');
  const sent = message.parts.find((p) => p.type === 'data-app-message');
  const contexts = message.parts.flatMap((p) => (p.type === 'data-app-context' ? [p.data] : []));
  if (!sent && !contexts.length) return null;
  return (
    <div className="flex max-w-[85%] flex-col items-end gap-1 text-xs">
      {contexts.map((c, i) => (
        <details
          key={i}
          data-app-context={c.server}
          className="max-w-full rounded border border-violet-200 bg-violet-50 px-2 py-1 text-violet-900 dark:border-violet-800 dark:bg-violet-950 dark:text-violet-100"
        >
          <summary className="cursor-pointer">
            {t('contextFromApp', { server: c.server, tool: c.tool })}
          </summary>
          <p className="mt-1 whitespace-pre-wrap break-words">{c.text}</p>
        </details>
      ))}
      {sent && (
        <span data-from-app={sent.data.server} className="text-violet-700 dark:text-violet-300">
          {t('fromApp', { server: sent.data.server, tool: sent.data.tool })}
        </span>
      )}
    </div>
  );
}

/** The files attached to a user message. */
const filesOf = (message: ChatMessage, unnamed: string): ShownFile[] =>
  message.parts.flatMap((p) =>
    p.type === 'file' ? [{ url: p.url, name: p.filename ?? unnamed, mediaType: p.mediaType }] : [],
  );

/** A message's text parts, joined. */
const textOf = (message: ChatMessage) => message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');

/** A server's elicitation and sampling requests, by the tool call they came from (shown in its card). */
function requestsByCall(message: ChatMessage): Map<string, RequestPart[]> {
  const byCall = new Map<string, RequestPart[]>();
  for (const p of message.parts) {
    if (!isRequestPart(p)) continue;
    const list = byCall.get(p.data.toolCallId) ?? [];
    list.push(p);
    byCall.set(p.data.toolCallId, list);
  }
  return byCall;
}

/**
 * How each finished call of the chain is marked: an icon, and for screen readers (and the page's text) the
 * mark the summary has always read as.
 */
const CHAIN_MARK: Partial<Record<CardState, { Icon: LucideIcon; text: string; className: string }>> = {
  done: { Icon: Check, text: '✓', className: 'text-green-700 dark:text-green-400' },
  error: { Icon: X, text: '✗', className: 'text-red-700 dark:text-red-400' },
  denied: { Icon: Ban, text: '⊘', className: 'text-zinc-500' },
  cancelled: { Icon: Ban, text: '⊘', className: 'text-zinc-500' },
};

function ChainMark({ state }: { state: CardState }) {
  const mark = CHAIN_MARK[state];
  if (!mark) return '…';
  const { Icon, text, className } = mark;
  return (
    <>
      <Icon aria-hidden className={`inline size-3.5 align-[-0.2em] ${className}`} />
      <span className="sr-only">{text}</span>
    </>
  );
}

/** `time.now ✓ · calculator.evaluate ✗` under an answer that used tools (the marks drawn as icons). */
function ChainSummary({ tools, interrupted }: { tools: ToolPart[]; interrupted: boolean }) {
  if (!tools.length) return null;
  return (
    <p data-tool-chain className="mt-1 font-mono text-xs text-zinc-500">
      {tools.map((p, i) => (
        <Fragment key={p.toolCallId}>
          {i > 0 && ' · '}
          {`${toolRef(p).server}.${toolRef(p).tool} `}
          <ChainMark state={cardState(p, interrupted)} />
        </Fragment>
      ))}
    </p>
  );
}

/** One message: the user's as plain text; the assistant's as its parts in order — text, tool cards, notices. */
export const MessageItem = memo(function MessageItem({
  message,
  streaming,
  interrupted,
  progress,
  onApproval,
  onRegenerate,
  onEditResend,
  versions,
}: Props) {
  const t = useTranslations('message');
  const [editing, setEditing] = useState(false);
  const userMessage = useRef<HTMLDivElement>(null);
  /** An edit was cancelled (Escape, Cancel): the focus goes back to its Edit button, not to the page. */
  const cancelled = useRef(false);
  useEffect(() => {
    if (editing || !cancelled.current) return;
    cancelled.current = false;
    userMessage.current?.querySelector<HTMLElement>('[data-edit-message]')?.focus();
  }, [editing]);
  const afterHydration = useContext(MarkdownAfterHydration).has(message.id);
  const imported = message.metadata?.imported === true;
  if (message.role === 'user') {
    const text = textOf(message);
    return (
      <div
        ref={userMessage}
        id={`m-${message.id}`}
        data-role="user"
        data-message-id={message.id}
        data-imported={imported || undefined}
        className="group flex scroll-mt-16 flex-col items-end"
      >
        {imported && <ImportedMark />}
        {editing && onEditResend ? (
          <EditMessage
            initial={text}
            onCancel={() => {
              cancelled.current = true;
              setEditing(false);
            }}
            onSave={(next) => {
              setEditing(false);
              onEditResend(message.id, next);
            }}
          />
        ) : (
          <>
            <AttachmentChips items={resourcesOf(message)} />
            <AppParts message={message} />
            <FileAttachments files={filesOf(message, t('file'))} />
            {text && (
              <div
                data-message-text
                className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl bg-zinc-100 px-4 py-2 text-sm dark:bg-zinc-800"
              >
                {text}
              </div>
            )}
            <div className="flex items-center gap-2">
              {versions && <VersionSwitcher versions={versions} />}
              <MessageActions text={text} onEdit={onEditResend ? () => setEditing(true) : undefined} />
            </div>
          </>
        )}
      </div>
    );
  }
  const tools = message.parts.filter((p) => p.type === 'dynamic-tool');
  const requests = requestsByCall(message);
  const hasText = message.parts.some((p) => p.type === 'text' && p.text);
  // An answer stopped before its first word still offers Regenerate.
  const withActions = hasText || (interrupted && onRegenerate !== undefined);
  return (
    <div
      id={`m-${message.id}`}
      data-role="assistant"
      data-message-id={message.id}
      data-imported={imported || undefined}
      className="group w-full max-w-full scroll-mt-16 text-sm"
    >
      {imported && <ImportedMark />}
      {message.parts.map((part, i) => {
        if (part.type === 'text')
          return (
            <Markdown
              key={i}
              text={part.text}
              streaming={streaming && part.state !== 'done'}
              afterHydration={afterHydration}
            />
          );
        if (part.type === 'dynamic-tool') {
          return (
            <ToolCallCard
              key={part.toolCallId}
              part={part}
              interrupted={interrupted}
              imported={imported}
              progress={progress?.get(part.toolCallId)}
              requests={requests.get(part.toolCallId)}
              active={streaming}
              onApproval={onApproval}
            />
          );
        }
        if (part.type === 'data-notice') {
          return (
            <p
              key={i}
              data-notice
              className="my-2 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
            >
              {part.data.text}
            </p>
          );
        }
        return null;
      })}
      {streaming && !hasText && !tools.length && (
        <span className="animate-pulse text-zinc-400">{t('thinking')}</span>
      )}
      <ChainSummary tools={tools} interrupted={interrupted} />
      {interrupted && (
        <p data-interrupted className="mt-2 text-xs font-medium text-amber-600 dark:text-amber-400">
          {t('interrupted')}
        </p>
      )}
      {!streaming && (withActions || versions) && (
        <div className="flex items-center gap-2">
          {versions && <VersionSwitcher versions={versions} />}
          {withActions && (
            <MessageActions
              text={textOf(message)}
              onRegenerate={onRegenerate}
              details={message.metadata ?? {}}
            />
          )}
        </div>
      )}
    </div>
  );
});
