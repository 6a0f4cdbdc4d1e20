'use client';

import { useCallback, useRef, useState } from 'react';
import type { ChatMessage } from '@/lib/schemas/chat';

type Page = { messages: ChatMessage[]; before: number | null };

/**
 * A long conversation opens with its newest page of messages; older pages come from
 * GET /api/conversations/[id]/messages?before=… and are put in front of what is loaded (ids already
 * there are skipped). `before` is the position of the oldest loaded message, null once the first is loaded.
 */
export function useOlderMessages(
  id: string,
  initialBefore: number | null,
  prepend: (older: ChatMessage[]) => void,
) {
  const [before, setBefore] = useState(initialBefore);
  const cursor = useRef(initialBefore);
  const loadOlder = useCallback(async (): Promise<boolean> => {
    const at = cursor.current;
    if (at === null) return false;
    try {
      const res = await fetch(
        `/api/conversations/${encodeURIComponent(id)}/messages?before=${at}&limit=100`,
        { cache: 'no-store' },
      );
      if (!res.ok) return false;
      const page = (await res.json()) as Page;
      if (cursor.current !== at) return false;
      cursor.current = page.before;
      prepend(page.messages);
      setBefore(page.before);
      return true;
    } catch {
      return false;
    }
  }, [id, prepend]);
  return { hasOlder: before !== null, loadOlder };
}
