'use client';

import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { useId, useRef, useState, useTransition } from 'react';
import { isLocale, LOCALE_NAMES, LOCALES } from '@/lib/i18n/locales';
import { useTypedBeforeHydration } from './use-typed-before-hydration';

/** The UI language: stored for the user (and in a cookie for signed-out pages), then the page re-renders. */
export function LanguageSelect({ className }: { className?: string }) {
  const t = useTranslations('language');
  const id = useId();
  const locale = useLocale();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState(false);
  const select = useRef<HTMLSelectElement>(null);
  useTypedBeforeHydration(select, locale, (picked) => void pick(picked));

  async function pick(next: string) {
    if (!isLocale(next) || pending) return;
    setError(false);
    const res = await fetch('/api/account/locale', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ locale: next }),
    }).catch(() => null);
    if (!res?.ok) return setError(true);
    startTransition(() => router.refresh());
  }

  return (
    <span className={className ?? 'flex items-center gap-1 text-zinc-600 dark:text-zinc-400'}>
      <label htmlFor={id}>{t('label')}</label>
      <select
        ref={select}
        // A browser's restored form state (Firefox, on reload) is not a choice to adopt.
        autoComplete="off"
        id={id}
        value={locale}
        // Busy while the page changes language: aria-disabled, not disabled (why: see busy-button.tsx).
        aria-disabled={pending || undefined}
        onChange={(e) => void pick(e.currentTarget.value)}
        className="rounded border border-zinc-300 bg-white px-1 py-0.5 text-xs aria-disabled:opacity-50 dark:border-zinc-700 dark:bg-zinc-900"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
      {error && (
        <span role="alert" className="text-red-600">
          {t('failed')}
        </span>
      )}
    </span>
  );
}
