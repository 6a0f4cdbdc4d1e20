'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { useTypedBeforeHydration } from '@/app/_components/use-typed-before-hydration';
import { accountRequest } from './account-fetch';
import { buttonClass, inputClass, Section } from './section';

/** The user's name (the email is shown, not editable). */
export function ProfileForm({ name, email }: { name: string; email: string }) {
  const t = useTranslations('account');
  const id = useId();
  const router = useRouter();
  const [value, setValue] = useState(name);
  const field = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(field, value, setValue);
  const [state, setState] = useState<'idle' | 'saving' | 'saved' | 'error'>('idle');

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if (state === 'saving') return;
    setState('saving');
    const res = await accountRequest('/api/account', 'PATCH', { name: value });
    setState(res.ok ? 'saved' : 'error');
    if (res.ok) router.refresh();
  }

  return (
    <Section id={`${id}-h`} title={t('profile')}>
      <form onSubmit={(e) => void save(e)} className="space-y-3">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {t('emailIs')} <span className="font-medium">{email}</span>
        </p>
        <div>
          <label htmlFor={`${id}-name`} className="mb-1 block text-sm font-medium">
            {t('name')}
          </label>
          <input
            id={`${id}-name`}
            ref={field}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            required
            maxLength={100}
            autoComplete="name"
            className={inputClass}
          />
        </div>
        <div className="flex items-center gap-3">
          <BusyButton
            type="submit"
            disabled={!value.trim()}
            busy={state === 'saving'}
            className={buttonClass}
          >
            {t('saveName')}
          </BusyButton>
          <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            {state === 'saved' && t('nameSaved')}
          </p>
          {state === 'error' && (
            <p role="alert" className="text-sm text-red-600">
              {t('nameFailed')}
            </p>
          )}
        </div>
      </form>
    </Section>
  );
}
