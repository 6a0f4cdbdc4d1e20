'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef } from 'react';
import { writeDraft } from '@/lib/drafts';
import type { ChatMessage } from '@/lib/schemas/chat';
import { textOf } from './message-item';

/**
 * A new chat's URL. It moves to its conversation's once the server has taken its first message (see
 * EngineCallbacks.onAccepted: `accepted`), with history.replaceState. A first message refused or never
 * delivered (a 429, offline) leaves the URL alone and is kept as the new chat's draft (`finished`), so a
 * reload is a new chat again, with the text back.
 */
export function useNewChatUrl(id: string, isNew: boolean) {
  const router = useRouter();
  const movedRef = useRef(false);
  const acceptedRef = useRef(!isNew);
  const mountedRef = useRef(true);
  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
    };
  }, []);

  const accepted = useCallback(() => {
    acceptedRef.current = true;
    if (!mountedRef.current || !isNew || window.location.pathname !== '/') return;
    movedRef.current = true;
    window.history.replaceState(null, '', `/c/${id}`);
  }, [id, isNew]);

  const finished = useCallback((isError: boolean, messages: ChatMessage[]) => {
    if (!isError || acceptedRef.current) return;
    const sent = messages.findLast((m) => m.role === 'user');
    if (sent) writeDraft('new', textOf(sent));
  }, []);

  // history.replaceState keeps the new chat's page in the moved history entry: Back or Forward to it (from
  // New chat, another conversation) restores an empty new chat under the conversation's URL. Load the
  // conversation instead.
  const pathname = usePathname();
  useEffect(() => {
    if (isNew && pathname.startsWith('/c/') && !movedRef.current) router.replace(pathname);
  }, [isNew, pathname, router]);

  return { accepted, finished };
}
