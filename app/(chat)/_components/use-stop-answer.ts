'use client';

import { useState } from 'react';
import { notifyConversationsChanged } from '@/lib/conversation-events';
import type { ChatMessage } from '@/lib/schemas/chat';
import { useEscapeStop } from './use-escape-stop';

/** What POST /api/chat/[id]/stop answers (app/_server/conversation-turns.ts); null when it failed. */
type StopResult = { stopped: boolean; answer: ChatMessage | null };

async function requestStop(id: string): Promise<StopResult | null> {
  try {
    const res = await fetch(`/api/chat/${id}/stop`, { method: 'POST' });
    return res.ok ? ((await res.json()) as StopResult) : null;
  } catch {
    return null;
  }
}

/** Stopping the answer being written (the Stop button, Escape), and which answers this tab stopped. */
export function useStopAnswer(
  id: string,
  messages: ChatMessage[],
  stop: () => Promise<void>,
  busy: boolean,
  setMessages: (update: (current: ChatMessage[]) => ChatMessage[]) => Promise<void>,
) {
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());

  /**
   * Stop ends the turn on the server (from any tab), and this tab's stream at once. The tab then shows
   * the answer as the server stored it: a Stop that came after the answer's end leaves it complete
   * (its whole text, no "stopped" mark), one that cut it shows what was kept, marked.
   */
  async function onStop() {
    const current = messages.at(-1);
    const [result] = await Promise.all([requestStop(id), stop()]);
    if (current?.role === 'assistant') {
      const stored = result?.answer?.id === current.id ? result.answer : null;
      if (stored) void setMessages((all) => all.map((m) => (m.id === stored.id ? stored : m)));
      // Unknown (the request failed, or no stored answer came back): as this tab stopped it.
      const cut = stored
        ? Boolean(stored.metadata?.interrupted && !stored.metadata.error)
        : result?.stopped !== false;
      if (cut) setStopped((s) => new Set(s).add(current.id));
    }
    notifyConversationsChanged();
  }
  useEscapeStop(busy, () => void onStop());

  return { stopped, onStop };
}
