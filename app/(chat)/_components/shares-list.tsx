'use client';

import Link from 'next/link';
import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from './confirm-dialog';

type ShareItem = {
  token: string;
  url: string;
  conversationId: string;
  title: string;
  includeToolDetails: boolean;
  createdAt: string;
};

const BUTTON =
  'rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800';

function ShareRow({ item, onRevoke }: { item: ShareItem; onRevoke: () => void }) {
  const t = useTranslations('shares');
  const format = useFormatter();
  const [copied, setCopied] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(item.url);
      setCopied(true);
    } catch {
      // No clipboard (e.g. plain http): select the link so it can be copied by hand.
      inputRef.current?.select();
    }
  }
  return (
    <li data-share-token={item.token} className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <Link href={`/c/${item.conversationId}`} className="min-w-0 truncate font-medium hover:underline">
          {item.title}
        </Link>
        <span className="text-xs text-zinc-500">
          <time dateTime={item.createdAt}>
            {format.dateTime(new Date(item.createdAt), { dateStyle: 'medium', timeStyle: 'short' })}
          </time>
          {' · '}
          {item.includeToolDetails ? t('withDetails') : t('withoutDetails')}
        </span>
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input
          ref={inputRef}
          readOnly
          value={item.url}
          aria-label={t('linkFor', { title: item.title })}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 basis-56 rounded-md border border-zinc-300 bg-zinc-50 px-2 py-1 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
        />
        <button type="button" onClick={() => void copy()} className={BUTTON}>
          {copied ? t('copied') : t('copy')}
        </button>
        <button
          type="button"
          onClick={onRevoke}
          className="rounded-md border border-red-300 px-2.5 py-1 text-sm text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
        >
          {t('revoke')}
        </button>
      </div>
    </li>
  );
}

/** The signed-in user's share links (GET /api/shares), each with copy and revoke. */
export function SharesList() {
  const t = useTranslations('shares');
  const [items, setItems] = useState<ShareItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<ShareItem | null>(null);

  const load = useCallback(async () => {
    try {
      const res = await fetch('/api/shares', { cache: 'no-store' });
      if (!res.ok) throw new Error();
      setItems(((await res.json()) as { items: ShareItem[] }).items);
      setError(null);
    } catch {
      setError(t('loadFailed'));
    }
  }, [t]);

  useEffect(() => {
    void load();
  }, [load]);

  async function revoke(item: ShareItem) {
    setConfirming(null);
    const res = await fetch(`/api/shares/${encodeURIComponent(item.token)}`, { method: 'DELETE' }).catch(
      () => null,
    );
    if (res && (res.ok || res.status === 404)) {
      setItems((list) => list?.filter((i) => i.token !== item.token) ?? null);
    } else {
      setError(t('revokeFailed'));
    }
  }

  return (
    <section aria-labelledby="shares-heading" className="mx-auto max-w-3xl px-4 py-6 pl-12 md:pl-4">
      <h1 id="shares-heading" className="text-xl font-semibold">
        {t('title')}
      </h1>
      <p className="mt-1 text-sm text-zinc-500">{t('intro')}</p>
      {error && (
        <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {items === null ? (
        !error && (
          <p role="status" className="mt-6 text-sm text-zinc-500">
            {t('loading')}
          </p>
        )
      ) : items.length === 0 ? (
        <p className="mt-6 text-sm text-zinc-500">{t('none')}</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {items.map((item) => (
            <ShareRow key={item.token} item={item} onRevoke={() => setConfirming(item)} />
          ))}
        </ul>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('confirmTitle')}
          body={t('confirmBody', { title: confirming.title })}
          confirmLabel={t('revoke')}
          onConfirm={() => void revoke(confirming)}
          onCancel={() => setConfirming(null)}
        />
      )}
    </section>
  );
}
