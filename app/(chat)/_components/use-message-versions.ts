'use client';

import { useCallback, useState } from 'react';
import { readMessagePage } from './message-pages';

/**
 * The versions of the conversation's messages (edits, regenerations): message id → the ids of all its
 * versions, in the order written. Starts from those sent with the page; more merge in as they are read.
 */
export function useMessageVersions(id: string, initialSiblings: Record<string, string[]>) {
  const [siblings, setSiblings] = useState<Readonly<Record<string, string[]>>>(initialSiblings);
  const mergeSiblings = useCallback(
    (more: Record<string, string[]>) =>
      setSiblings((s) => (Object.keys(more).length ? { ...s, ...more } : s)),
    [],
  );

  /**
   * After a turn: the versions of the newest messages of the path (an edit or a regenerate just added
   * one), read back from the server, which numbered them.
   */
  async function refreshVersions() {
    // Unreadable: the counter shows after the next reload.
    const page = await readMessagePage(id, { limit: 4 });
    if (page) mergeSiblings(page.siblings ?? {});
  }

  return { siblings, mergeSiblings, refreshVersions };
}
