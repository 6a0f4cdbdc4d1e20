'use client';

import { useCallback, useEffect, useState } from 'react';
import type { AppContextNote } from './mcp-app-host';

/** Context apps shared and not yet sent, kept for this tab across a reload (sessionStorage). */
export function useAppContexts(id: string) {
  const key = `mcp-chat:app-context:${id}`;
  const [contexts, setContexts] = useState<ReadonlyMap<string, AppContextNote>>(() => new Map());
  useEffect(() => {
    try {
      const stored = JSON.parse(window.sessionStorage.getItem(key) ?? '[]') as Array<
        [string, AppContextNote]
      >;
      if (Array.isArray(stored) && stored.length) setContexts(new Map(stored));
    } catch {
      /* nothing kept */
    }
  }, [key]);
  const update = useCallback(
    (
      next:
        | ReadonlyMap<string, AppContextNote>
        | ((m: ReadonlyMap<string, AppContextNote>) => ReadonlyMap<string, AppContextNote>),
    ) =>
      setContexts((current) => {
        const value = typeof next === 'function' ? next(current) : next;
        try {
          if (value.size) window.sessionStorage.setItem(key, JSON.stringify([...value]));
          else window.sessionStorage.removeItem(key);
        } catch {
          /* storage off: this page only */
        }
        return value;
      }),
    [key],
  );
  return [contexts, update] as const;
}
