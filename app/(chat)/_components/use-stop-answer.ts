'use client';

import { useState } from 'react';
import { notifyConversationsChanged } from '@/lib/conversation-events';
import type { ChatMessage } from '@/lib/schemas/chat';
import { useEscapeStop } from './use-escape-stop';

/** Stopping the answer being written (the Stop button, Escape), and which answers this tab stopped. */
export function useStopAnswer(id: string, messages: ChatMessage[], stop: () => Promise<void>, busy: boolean) {
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());

  /** Stop ends the turn on the server (from any tab), then this tab's stream. */
  async function onStop() {
    const current = messages.at(-1);
    await Promise.all([fetch(`/api/chat/${id}/stop`, { method: 'POST' }).catch(() => null), stop()]);
    if (current?.role === 'assistant') setStopped((s) => new Set(s).add(current.id));
    notifyConversationsChanged();
  }
  useEscapeStop(busy, () => void onStop());

  return { stopped, onStop };
}
