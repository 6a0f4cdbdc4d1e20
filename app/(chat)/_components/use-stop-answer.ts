'use client';

import { useState } from 'react';
import { notifyConversationsChanged } from '@/lib/conversation-events';
import type { ChatMessage } from '@/lib/schemas/chat';
import { afterStop, type StopResult } from './stop-result';
import { useEscapeStop } from './use-escape-stop';

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
   * (its whole text, no "stopped" mark), one that cut it shows what was kept, marked. A Stop before the
   * answer's first part reached the tab shows the stored answer under the question, as a reload would.
   */
  async function onStop() {
    const [result] = await Promise.all([requestStop(id), stop()]);
    const { stored, shown, cut } = afterStop(messages, result);
    if (stored)
      void setMessages((all) =>
        all.some((m) => m.id === stored.id)
          ? all.map((m) => (m.id === stored.id ? stored : m))
          : [...all, stored],
      );
    if (shown && cut) setStopped((s) => new Set(s).add(shown));
    notifyConversationsChanged();
  }
  useEscapeStop(busy, () => void onStop());

  return { stopped, onStop };
}
