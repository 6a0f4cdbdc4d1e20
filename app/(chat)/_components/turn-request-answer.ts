'use client';

import { useTranslations } from 'next-intl';
import { createContext, useContext } from 'react';
import type { RequestAnswer } from '@/lib/schemas/turn-requests';

/** The conversation whose running turn the request cards answer (provided by the chat). */
export const ConversationIdContext = createContext<string | null>(null);

export type AnswerOutcome = { ok: true } | { ok: false; error: string; fields?: Record<string, string> };

/** Sends the owner's answer to a server's request; the card shows the new state from the turn's stream. */
export function useAnswerRequest(): (requestId: string, answer: RequestAnswer) => Promise<AnswerOutcome> {
  const conversationId = useContext(ConversationIdContext);
  const t = useTranslations('chat');
  const tc = useTranslations('common');
  return async (requestId, answer) => {
    if (!conversationId) return { ok: false, error: t('requestNotHere') };
    try {
      const res = await fetch(
        `/api/chat/${encodeURIComponent(conversationId)}/requests/${encodeURIComponent(requestId)}`,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) },
      );
      if (res.ok) return { ok: true };
      const body = (await res.json().catch(() => ({}))) as {
        error?: { message?: string; fields?: Record<string, string> };
      };
      return {
        ok: false,
        error: body.error?.message ?? t('requestFailed', { status: res.status }),
        fields: body.error?.fields,
      };
    } catch {
      return { ok: false, error: tc('unreachable') };
    }
  };
}
