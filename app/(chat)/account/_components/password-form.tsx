'use client';

import { useTranslations } from 'next-intl';
import { useId, useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { useTypedBeforeHydration } from '@/app/_components/use-typed-before-hydration';
import { accountRequest } from './account-fetch';
import { buttonClass, inputClass, Section } from './section';

/** Change the password: the current one is required; every other session is signed out. */
export function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const t = useTranslations('account');
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const currentField = useRef<HTMLInputElement>(null);
  const nextField = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(currentField, current, setCurrent);
  useTypedBeforeHydration(nextField, next, setNext);
  const [state, setState] = useState<'idle' | 'saving' | 'changed' | 'wrong' | 'invalid' | 'error'>('idle');

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (state === 'saving') return;
    setState('saving');
    const res = await accountRequest('/api/account/password', 'POST', {
      currentPassword: current,
      newPassword: next,
    });
    if (res.ok) {
      setCurrent('');
      setNext('');
      setState('changed');
      onChanged();
    } else if (res.fields?.currentPassword) setState('wrong');
    else if (res.fields?.newPassword) setState('invalid');
    else setState('error');
  }

  const error =
    state === 'wrong'
      ? t('wrongPassword')
      : state === 'invalid'
        ? t('passwordRules')
        : state === 'error'
          ? t('passwordFailed')
          : null;

  return (
    <Section id={`${id}-h`} title={t('password')}>
      <form onSubmit={(e) => void submit(e)} className="space-y-3">
        <div>
          <label htmlFor={`${id}-current`} className="mb-1 block text-sm font-medium">
            {t('currentPassword')}
          </label>
          <input
            id={`${id}-current`}
            ref={currentField}
            type="password"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            required
            maxLength={128}
            autoComplete="current-password"
            aria-invalid={state === 'wrong'}
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor={`${id}-new`} className="mb-1 block text-sm font-medium">
            {t('newPassword')}
          </label>
          <input
            id={`${id}-new`}
            ref={nextField}
            type="password"
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            required
            minLength={8}
            maxLength={128}
            autoComplete="new-password"
            aria-describedby={`${id}-rules`}
            className={inputClass}
          />
          <p id={`${id}-rules`} className="mt-1 text-xs text-zinc-500">
            {t('passwordRules')}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <BusyButton type="submit" busy={state === 'saving'} className={buttonClass}>
            {t('changePassword')}
          </BusyButton>
          <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            {state === 'changed' && t('passwordChanged')}
          </p>
          {error && (
            <p role="alert" className="text-sm text-red-600">
              {error}
            </p>
          )}
        </div>
      </form>
    </Section>
  );
}
