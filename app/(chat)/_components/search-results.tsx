'use client';

import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { splitSnippet } from '@/lib/search-snippet';
import type { SearchHit } from './use-conversation-search';

type Props = {
  results: SearchHit[] | null;
  pending: boolean;
  failed: boolean;
  pathname: string;
  onNavigate?: () => void;
};

/** The snippet as text nodes, each match in a <mark> (never parsed as HTML). */
function Snippet({ text }: { text: string }) {
  return (
    <>
      {splitSnippet(text).map((s, i) =>
        s.match ? (
          <mark key={i} className="rounded-sm bg-amber-200 px-0.5 text-inherit dark:bg-amber-500/40">
            {s.text}
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

/** Search hits in place of the history list: title plus highlighted snippet, linking to the matching message. */
export function SearchResults({ results, pending, failed, pathname, onNavigate }: Props) {
  const t = useTranslations('search');
  if (failed)
    return <p className="px-3 py-6 text-center text-sm text-red-600 dark:text-red-400">{t('failed')}</p>;
  if (!results || (pending && results.length === 0))
    return <p className="px-3 py-6 text-center text-sm text-zinc-500">{t('searching')}</p>;
  if (results.length === 0) return <p className="px-3 py-6 text-center text-sm text-zinc-500">{t('none')}</p>;
  return (
    <ul aria-label={t('results')} className="space-y-0.5" aria-busy={pending || undefined}>
      {results.map((hit) => {
        const active = pathname === `/c/${hit.id}`;
        const showSnippet = hit.snippet.trim() !== '' && hit.snippet !== hit.title;
        return (
          <li key={hit.id}>
            <Link
              href={`/c/${hit.id}${hit.messageId ? `#m-${hit.messageId}` : ''}`}
              aria-current={active ? 'page' : undefined}
              onClick={onNavigate}
              className={`block rounded-md px-3 py-2 ${active ? 'bg-zinc-200 dark:bg-zinc-800' : 'hover:bg-zinc-100 dark:hover:bg-zinc-900'}`}
            >
              <span className="block truncate text-sm" title={hit.title}>
                {showSnippet ? hit.title : <Snippet text={hit.snippet || hit.title} />}
              </span>
              {showSnippet && (
                <span className="mt-0.5 line-clamp-2 text-xs break-words text-zinc-500 dark:text-zinc-400">
                  <Snippet text={hit.snippet} />
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
