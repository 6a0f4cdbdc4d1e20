'use client';

import { useCallback, useEffect, useState } from 'react';

export type SearchHit = {
  id: string;
  title: string;
  updatedAt: string;
  messageId: string | null;
  snippet: string;
};
type Result = { query: string; items: SearchHit[]; failed: boolean };

const DEBOUNCE_MS = 250;

/**
 * Full-text search over the user's conversations, debounced; answers for an outdated query are discarded.
 * `results` is null while the query is empty; while the answer for a changed query is `pending`, the previous
 * results stay up (no flicker per keystroke).
 */
export function useConversationSearch() {
  const [query, setQueryState] = useState('');
  const [result, setResult] = useState<Result | null>(null);
  const q = query.trim();

  useEffect(() => {
    if (!q) return;
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(`/api/conversations?q=${encodeURIComponent(q)}`, {
          cache: 'no-store',
          signal: abort.signal,
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const body = (await res.json()) as { items: SearchHit[] };
        setResult({ query: q, items: body.items, failed: false });
      } catch {
        if (!abort.signal.aborted) setResult({ query: q, items: [], failed: true });
      }
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [q]);

  const setQuery = useCallback((value: string) => {
    setQueryState(value);
    if (!value.trim()) setResult(null);
  }, []);

  const current = q && result?.query === q ? result : null;
  return {
    query,
    setQuery,
    active: q.length > 0,
    pending: q.length > 0 && !current,
    results: q ? (result?.items ?? null) : null,
    failed: current?.failed ?? false,
  };
}
