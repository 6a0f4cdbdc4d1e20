'use client';

import { useMemo, useRef } from 'react';
import type { ChatMessage } from '@/lib/schemas/chat';
import type { useLazyChat } from './use-lazy-chat';
import type { Versions } from './version-switcher';

/** A message id made here (crypto.getRandomValues also works on a plain-http origin, unlike randomUUID). */
const newMessageId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

type LazyChat = ReturnType<typeof useLazyChat>;

type Input = {
  id: string;
  messages: ChatMessage[];
  setMessages: LazyChat['setMessages'];
  sendMessage: LazyChat['sendMessage'];
  siblings: Readonly<Record<string, string[]>>;
  mergeSiblings: (more: Record<string, string[]>) => void;
  busy: boolean;
};

/** Switching between a message's versions (Previous version / Next version) and editing one into a new version. */
export function useVersionActions({
  id,
  messages,
  setMessages,
  sendMessage,
  siblings,
  mergeSiblings,
  busy,
}: Input) {
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

  return { versionsById, editMessage };
}
