'use client';

import { useCallback, useRef, useState } from 'react';
import type { ChatMessage } from '@/lib/schemas/chat';
import { readMessagePage } from './message-pages';

/**
 * A long conversation opens with the newest page of its selected path; older pages of that path come
 * from GET /api/conversations/[id]/messages?before=… and are put in front of what is loaded (ids
 * already there are skipped), with the versions of those messages. `before` is the id of the oldest
 * loaded message, null once the first is loaded.
 */
export function useOlderMessages(
  id: string,
  initialBefore: string | null,
  setMessages: (update: (current: ChatMessage[]) => ChatMessage[]) => unknown,
  mergeSiblings: (siblings: Record<string, string[]>) => void,
) {
  const prepend = useCallback(
    (older: ChatMessage[], olderSiblings: Record<string, string[]>) => {
      mergeSiblings(olderSiblings);
      setMessages((current) => {
        const have = new Set(current.map((m) => m.id));
        return [...older.filter((m) => !have.has(m.id)), ...current];
      });
    },
    [setMessages, mergeSiblings],
  );
  const [before, setBefore] = useState(initialBefore);
  const cursor = useRef(initialBefore);
  const loadOlder = useCallback(async (): Promise<boolean> => {
    const at = cursor.current;
    if (at === null) return false;
    const page = await readMessagePage(id, { before: at, limit: 100 });
    if (!page || cursor.current !== at) return false;
    cursor.current = page.before;
    prepend(page.messages, page.siblings ?? {});
    setBefore(page.before);
    return true;
  }, [id, prepend]);
  return { hasOlder: before !== null, loadOlder };
}
