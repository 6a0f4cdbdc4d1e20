'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { neighbourControl } from '@/app/_components/neighbour-focus';
import type { AccountSession } from '@/lib/schemas/account';
import { describeUserAgent } from '@/lib/user-agent';
import { accountRequest } from './account-fetch';
import { Section, secondaryButtonClass } from './section';

/**
 * The user's active sessions: device, last active, "This device"; sign out one, or all the others. A
 * signed-out row takes its focused button with it: the focus goes on to the next session's, else to the
 * block's heading.
 */
export function SessionsList({ version }: { version: number }) {
  const t = useTranslations('account');
  const format = useFormatter();
  const id = useId();
  const [items, setItems] = useState<AccountSession[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const list = useRef<HTMLUListElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  /** Where the focus goes once the list is shown without the signed-out session(s). */
  const refocus = useRef<HTMLElement | 'heading' | null>(null);

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

  useEffect(() => {
    const target = refocus.current;
    if (!items || !target) return;
    refocus.current = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    (target !== 'heading' && target.isConnected ? target : heading.current)?.focus();
  }, [items]);

  async function signOut(target: AccountSession | 'others') {
    const next =
      target === 'others'
        ? null
        : neighbourControl(
            list.current?.querySelectorAll<HTMLElement>('[data-session]') ?? [],
            (row) => row.dataset.sessionId === target.id,
            (row) => row.querySelector('button'),
          );
    setBusy(true);
    const res =
      target === 'others'
        ? await accountRequest('/api/account/sessions', 'DELETE')
        : await accountRequest(`/api/account/sessions/${encodeURIComponent(target.id)}`, 'DELETE');
    setBusy(false);
    if (!res.ok) return setFailed(true);
    setAnnouncement(target === 'others' ? t('othersSignedOut') : t('sessionSignedOut'));
    refocus.current = next ?? 'heading';
    await load();
  }

  const device = (s: AccountSession) => {
    const { browser, os } = describeUserAgent(s.userAgent);
    if (browser && os) return t('deviceOn', { browser, os });
    return browser ?? os ?? (s.userAgent?.slice(0, 80) || t('unknownDevice'));
  };
  const lastActive = (s: AccountSession) =>
    format.dateTime(new Date(s.lastActive), { dateStyle: 'medium', timeStyle: 'short' });
  const others = items?.filter((s) => !s.current).length ?? 0;

  return (
    <Section id={`${id}-h`} title={t('sessions')} headingRef={heading}>
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
        <ul ref={list} className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {items.map((s) => (
            <li
              key={s.id}
              data-session={s.current ? 'current' : 'other'}
              data-session-id={s.id}
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
                <p className="text-xs text-zinc-500">{t('lastActive', { when: lastActive(s) })}</p>
              </div>
              {!s.current && (
                <BusyButton
                  type="button"
                  busy={busy}
                  aria-label={t('signOutSessionOf', { device: device(s), when: lastActive(s) })}
                  onClick={() => void signOut(s)}
                  className={secondaryButtonClass}
                >
                  {t('signOutSession')}
                </BusyButton>
              )}
            </li>
          ))}
        </ul>
      )}
      {others > 0 && (
        <BusyButton
          type="button"
          busy={busy}
          onClick={() => void signOut('others')}
          className={`${secondaryButtonClass} mt-3`}
        >
          {t('signOutOthers')}
        </BusyButton>
      )}
    </Section>
  );
}
