'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { accountRequest } from './account-fetch';
import { Section } from './section';

/** Delete the account and its data, after typing the account's email. */
export function DeleteAccount({ email }: { email: string }) {
  const t = useTranslations('account');
  const id = useId();
  const [typed, setTyped] = useState('');
  const [state, setState] = useState<'idle' | 'deleting' | 'last-admin' | 'error'>('idle');
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  async function remove(e: React.FormEvent) {
    e.preventDefault();
    if (!matches) return;
    setState('deleting');
    const res = await accountRequest('/api/account', 'DELETE', { confirm: typed });
    if (res.ok) return window.location.assign('/sign-in');
    setState(res.status === 409 ? 'last-admin' : 'error');
  }

  return (
    <Section id={`${id}-h`} title={t('deleteTitle')}>
      <form onSubmit={(e) => void remove(e)} className="space-y-3">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('deleteExplain')}</p>
        <div>
          <label htmlFor={`${id}-confirm`} className="mb-1 block text-sm font-medium">
            {t('deleteConfirmLabel', { email })}
          </label>
          <input
            id={`${id}-confirm`}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
            className="w-full rounded border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          />
        </div>
        {/* Not yet confirmed: disabled. Deleting: unavailable but keeping the focus (BusyButton). */}
        <BusyButton
          type="submit"
          disabled={!matches}
          busy={state === 'deleting'}
          className="rounded bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-50 aria-disabled:opacity-50"
        >
          {t('deleteAccount')}
        </BusyButton>
        {(state === 'last-admin' || state === 'error') && (
          <p role="alert" className="text-sm text-red-600">
            {state === 'last-admin' ? t('lastAdmin') : t('deleteFailed')}
          </p>
        )}
      </form>
    </Section>
  );
}
