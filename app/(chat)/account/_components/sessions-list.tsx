'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useId, useState } from 'react';
import type { AccountSession } from '@/lib/schemas/account';
import { describeUserAgent } from '@/lib/user-agent';
import { accountRequest } from './account-fetch';
import { Section, secondaryButtonClass } from './section';

/** The user's active sessions: device, last active, "This device"; sign out one, or all the others. */
export function SessionsList({ version }: { version: number }) {
  const t = useTranslations('account');
  const format = useFormatter();
  const id = useId();
  const [items, setItems] = useState<AccountSession[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  const load = useCallback(async () => {
    const res = await fetch('/api/account/sessions').catch(() => null);
    if (!res?.ok) return setFailed(true);
    setFailed(false);
    setItems(((await res.json()) as { items: AccountSession[] }).items);
  }, []);

  useEffect(() => {
    void version;
    void load();
  }, [load, version]);

  async function signOut(target: AccountSession | 'others') {
    setBusy(true);
    const res =
      target === 'others'
        ? await accountRequest('/api/account/sessions', 'DELETE')
        : await accountRequest(`/api/account/sessions/${encodeURIComponent(target.id)}`, 'DELETE');
    setBusy(false);
    if (!res.ok) return setFailed(true);
    setAnnouncement(target === 'others' ? t('othersSignedOut') : t('sessionSignedOut'));
    await load();
  }

  const device = (s: AccountSession) => {
    const { browser, os } = describeUserAgent(s.userAgent);
    if (browser && os) return t('deviceOn', { browser, os });
    return browser ?? os ?? (s.userAgent?.slice(0, 80) || t('unknownDevice'));
  };
  const others = items?.filter((s) => !s.current).length ?? 0;

  return (
    <Section id={`${id}-h`} title={t('sessions')}>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {failed && (
        <p role="alert" className="mb-2 text-sm text-red-600">
          {t('sessionsFailed')}
        </p>
      )}
      {items === null && !failed && <p className="text-sm text-zinc-500">{t('loading')}</p>}
      {items && (
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {items.map((s) => (
            <li
              key={s.id}
              data-session={s.current ? 'current' : 'other'}
              className="flex flex-wrap items-center justify-between gap-2 py-2"
            >
              <div className="min-w-0">
                <p className="truncate text-sm font-medium" title={s.userAgent ?? undefined}>
                  {device(s)}
                  {s.current && (
                    <span className="ml-2 rounded bg-green-100 px-1.5 py-0.5 text-xs text-green-800 dark:bg-green-900 dark:text-green-200">
                      {t('thisDevice')}
                    </span>
                  )}
                </p>
                <p className="text-xs text-zinc-500">
                  {t('lastActive', {
                    when: format.dateTime(new Date(s.lastActive), {
                      dateStyle: 'medium',
                      timeStyle: 'short',
                    }),
                  })}
                </p>
              </div>
              {!s.current && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void signOut(s)}
                  className={secondaryButtonClass}
                >
                  {t('signOutSession')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others > 0 && (
        <button
          type="button"
          disabled={busy}
          onClick={() => void signOut('others')}
          className={`${secondaryButtonClass} mt-3`}
        >
          {t('signOutOthers')}
        </button>
      )}
    </Section>
  );
}
