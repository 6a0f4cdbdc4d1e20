import type { ChatMessage } from '@/lib/schemas/chat';

/** A page of a conversation's selected path (GET /api/conversations/[id]/messages). */
export type MessagePage = {
  messages: ChatMessage[];
  before: string | null;
  siblings?: Record<string, string[]>;
};

/**
 * Reads a page of the conversation's messages: the newest (`{ limit }`), or those before a message
 * (`{ before, limit }`); null when it cannot be read (gone, offline).
 */
export async function readMessagePage(
  id: string,
  query: { before?: string; limit?: number } = {},
): Promise<MessagePage | null> {
  const params = new URLSearchParams();
  if (query.before) params.set('before', query.before);
  if (query.limit) params.set('limit', String(query.limit));
  const search = params.toString() ? `?${params}` : '';
  try {
    const res = await fetch(`/api/conversations/${encodeURIComponent(id)}/messages${search}`, {
      cache: 'no-store',
    });
    return res.ok ? ((await res.json()) as MessagePage) : null;
  } catch {
    return null;
  }
}
