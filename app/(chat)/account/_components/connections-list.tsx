'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useId, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { accountRequest } from './account-fetch';
import { Section, secondaryButtonClass } from './section';

type Connection = {
  server: string;
  scope: 'shared' | 'user';
  status: 'ready' | 'needs-auth' | 'connecting' | 'error';
  signedIn?: boolean;
  values?: Array<{ key: string; set: boolean }>;
};

/** The user's own MCP connections (per-user servers): their state, and Disconnect (forgets the sign-in). */
export function ConnectionsList() {
  const t = useTranslations('account');
  const id = useId();
  const [items, setItems] = useState<Connection[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const load = useCallback(async () => {
    const res = await fetch('/api/mcp/connections').catch(() => null);
    if (!res?.ok) return setFailed(true);
    setFailed(false);
    const all = ((await res.json()) as { items: Connection[] }).items;
    setItems(all.filter((c) => c.scope === 'user'));
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function disconnect(server: string) {
    setBusy(server);
    const res = await accountRequest(`/api/mcp/connections/${encodeURIComponent(server)}`, 'DELETE');
    setBusy(null);
    if (!res.ok) return setFailed(true);
    setAnnouncement(t('disconnected', { server }));
    await load();
  }

  const statusText = (c: Connection) =>
    c.status === 'ready'
      ? t('statusReady')
      : c.status === 'needs-auth'
        ? t('statusNeedsAuth')
        : c.status === 'connecting'
          ? t('statusConnecting')
          : t('statusError');

  return (
    <Section id={`${id}-h`} title={t('connections')}>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {failed && (
        <p role="alert" className="mb-2 text-sm text-red-600">
          {t('connectionsFailed')}
        </p>
      )}
      {items === null && !failed && <p className="text-sm text-zinc-500">{t('loading')}</p>}
      {items?.length === 0 && <p className="text-sm text-zinc-500">{t('noConnections')}</p>}
      {items && items.length > 0 && (
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {items.map((c) => (
            <li
              key={c.server}
              data-connection={c.server}
              className="flex flex-wrap items-center justify-between gap-2 py-2"
            >
              <div className="min-w-0">
                <p className="truncate font-mono text-sm">{c.server}</p>
                <p className="text-xs text-zinc-500">
                  {statusText(c)}
                  {c.signedIn && ` · ${t('signedIn')}`}
                </p>
              </div>
              <BusyButton
                type="button"
                busy={busy === c.server}
                onClick={() => void disconnect(c.server)}
                aria-label={t('disconnectServer', { server: c.server })}
                className={secondaryButtonClass}
              >
                {t('disconnect')}
              </BusyButton>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
