'use client';

import { useCallback, useRef, useState } from 'react';
import type { ChatMessage } from '@/lib/schemas/chat';

type Page = { messages: ChatMessage[]; before: string | null; siblings?: Record<string, string[]> };

/**
 * A long conversation opens with the newest page of its selected path; older pages of that path come
 * from GET /api/conversations/[id]/messages?before=… and are put in front of what is loaded (ids
 * already there are skipped), with the versions of those messages. `before` is the id of the oldest
 * loaded message, null once the first is loaded.
 */
export function useOlderMessages(
  id: string,
  initialBefore: string | null,
  prepend: (older: ChatMessage[], siblings: Record<string, string[]>) => void,
) {
  const [before, setBefore] = useState(initialBefore);
  const cursor = useRef(initialBefore);
  const loadOlder = useCallback(async (): Promise<boolean> => {
    const at = cursor.current;
    if (at === null) return false;
    try {
      const res = await fetch(
        `/api/conversations/${encodeURIComponent(id)}/messages?before=${encodeURIComponent(at)}&limit=100`,
        { cache: 'no-store' },
      );
      if (!res.ok) return false;
      const page = (await res.json()) as Page;
      if (cursor.current !== at) return false;
      cursor.current = page.before;
      prepend(page.messages, page.siblings ?? {});
      setBefore(page.before);
      return true;
    } catch {
      return false;
    }
  }, [id, prepend]);
  return { hasOlder: before !== null, loadOlder };
}
