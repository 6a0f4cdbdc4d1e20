'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef } from 'react';
import { readDraft, writeDraft } from '@/lib/drafts';

/**
 * What follows from whether the server took a message (see EngineCallbacks.onAccepted: `accepted`):
 * - a new chat's URL moves to its conversation's once its first message is taken, with
 *   history.replaceState;
 * - a message the server refused or never got (a 429, bad input, offline) is kept as the draft (`sending`
 *   names its text, `finished` keeps it): the new chat's while the conversation does not exist yet (so a
 *   reload is a new chat again, with the text back), else the conversation's. A draft typed since is kept
 *   instead.
 */
export function useSendOutcome(id: string, isNew: boolean) {
  const router = useRouter();
  const movedRef = useRef(false);
  const acceptedRef = useRef(!isNew);
  const unsentRef = useRef<string | null>(null);
  const mountedRef = useRef(true);
  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
    };
  }, []);

  const sending = useCallback((text: string) => {
    unsentRef.current = text;
  }, []);

  const accepted = useCallback(() => {
    unsentRef.current = null;
    acceptedRef.current = true;
    if (!mountedRef.current || !isNew || window.location.pathname !== '/') return;
    movedRef.current = true;
    window.history.replaceState(null, '', `/c/${id}`);
  }, [id, isNew]);

  const finished = useCallback(
    (isError: boolean) => {
      const text = unsentRef.current;
      unsentRef.current = null;
      if (!isError || !text) return;
      const key = acceptedRef.current ? id : 'new';
      if (!readDraft(key).trim()) writeDraft(key, text);
    },
    [id],
  );

  // history.replaceState keeps the new chat's page in the moved history entry: Back or Forward to it (from
  // New chat, another conversation) restores an empty new chat under the conversation's URL. Load the
  // conversation instead.
  const pathname = usePathname();
  useEffect(() => {
    if (isNew && pathname.startsWith('/c/') && !movedRef.current) router.replace(pathname);
  }, [isNew, pathname, router]);

  return { sending, accepted, finished };
}
