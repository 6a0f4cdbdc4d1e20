import { notifyTitleChanged } from '@/lib/conversation-events';
import type { ChatMessage } from '@/lib/schemas/chat';

/** An answer that went through (not failed, not stopped): the first one is followed by a generated title. */
export const answered = (m: ChatMessage) =>
  m.role === 'assistant' && !m.metadata?.error && !m.metadata?.interrupted && m.parts.length > 0;

/**
 * Waits (server side, bounded) for the title generated after the first answer, then shows it everywhere.
 * True once the title is no longer the automatic first words (nothing more to wait for).
 */
export async function fetchTitle(id: string): Promise<boolean> {
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
