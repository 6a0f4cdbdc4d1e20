import type { ChatMessage } from '@/lib/schemas/chat';

/** What POST /api/chat/[id]/stop answers (app/_server/conversation-turns.ts); null when it failed. */
export type StopResult = { stopped: boolean; answer: ChatMessage | null };

/**
 * What a tab shows after its Stop, from the messages it showed (`messages`) and the server's answer:
 *  - `stored`: the stored answer it shows in place of its own: the one it was streaming, or, when none
 *    had reached it yet (Stop while the turn was still prepared), a new one after its question; an
 *    answer it shows already further up is an older turn's, and stays as it is;
 *  - `shown`: the id of the answer the Stop was about (none: no answer to show);
 *  - `cut`: whether that answer is marked stopped: as stored, or, when the server's answer is unknown
 *    (the request failed, no stored answer came back), as this tab stopped it unless the server said not.
 */
export function afterStop(
  messages: readonly ChatMessage[],
  result: StopResult | null,
): { stored: ChatMessage | null; shown: string | undefined; cut: boolean } {
  const answer = result?.answer ?? null;
  const current = messages.at(-1);
  const streamed = current?.role === 'assistant' ? current.id : null;
  const stored =
    answer && (streamed ? answer.id === streamed : !messages.some((m) => m.id === answer.id)) ? answer : null;
  const cut = stored
    ? Boolean(stored.metadata?.interrupted && !stored.metadata.error)
    : result?.stopped !== false;
  return { stored, shown: streamed ?? stored?.id, cut };
}
