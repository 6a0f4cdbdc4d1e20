'use client';

import { useRef, useState } from 'react';
import type { ChatMessage } from '@/lib/schemas/chat';
import { readMessagePage } from './message-pages';
import type { useLazyChat } from './use-lazy-chat';

type LazyChat = ReturnType<typeof useLazyChat>;

/** The calls answered by `ids` waiting for an answer again (the answer did not reach the server). */
function reopen(message: ChatMessage, ids: readonly string[]): ChatMessage {
  const parts = message.parts.map((part) =>
    part.type === 'dynamic-tool' && part.state === 'approval-responded' && ids.includes(part.approval.id)
      ? { ...part, state: 'approval-requested' as const, approval: { id: part.approval.id } }
      : part,
  );
  return parts.some((p, i) => p !== message.parts[i]) ? { ...message, parts } : message;
}

/**
 * Approve / Deny on a tool call. The card shows the answer at once; when the answer fails — the call was
 * answered in another tab, skipped by a message sent there, the conversation deleted there, the network
 * down — the error stays shown and the conversation is read back, so the cards show what really happened
 * (and follow a turn still running from the answer that counted), never an answer that did not count.
 * Unreadable (deleted, offline), the calls wait for an answer again.
 */
export function useApprovalAnswers(
  id: string,
  chat: () => Pick<LazyChat, 'setMessages' | 'addToolApprovalResponse' | 'resumeStream' | 'clearError'>,
  mergeSiblings: (more: Record<string, string[]>) => void,
) {
  const always = useRef(new Set<string>());
  // The approval ids of the answer being sent, until its request ends.
  const sent = useRef<string[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  function onApproval(approvalId: string, approved: boolean, alwaysAllow: boolean) {
    if (alwaysAllow) always.current.add(approvalId);
    void chat().addToolApprovalResponse({
      id: approvalId,
      approved,
      ...(approved ? {} : { reason: 'The user denied this call.' }),
    });
  }

  /** Every request body as it leaves (a new message, or answers to approvals). */
  function sending<T extends object>(body: T): T {
    sent.current =
      'approvals' in body && Array.isArray(body.approvals)
        ? body.approvals.map((a: { id: string }) => a.id)
        : null;
    setFailure(null);
    return body;
  }

  /** The request ended (with `error` if it failed). */
  async function finished(error: Error | undefined) {
    const ids = sent.current;
    sent.current = null;
    if (!error || !ids) return;
    setFailure(error.message);
    const { setMessages, resumeStream } = chat();
    const page = await readMessagePage(id);
    if (!page) {
      await setMessages((list) => list.map((m) => reopen(m, ids)));
      return;
    }
    mergeSiblings(page.siblings ?? {});
    // The newest messages as stored replace the same stretch here (and what another tab added after it).
    await setMessages((list) => {
      const at = list.findIndex((m) => m.id === page.messages[0]?.id);
      return at < 0 ? page.messages : [...list.slice(0, at), ...page.messages];
    });
    await resumeStream();
  }

  /** The notice closed: its error is forgotten. */
  function dismiss() {
    setFailure(null);
    void chat().clearError();
  }

  return { always: always.current, onApproval, sending, finished, failure, dismiss };
}
