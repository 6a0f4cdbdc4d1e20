'use client';

import { useTranslations } from 'next-intl';
import type { Ref } from 'react';
import { isInputMethodKey } from '@/app/_components/input-method';

type Props = { value: string; onChange: (value: string) => void; ref?: Ref<HTMLInputElement> };

/** The sidebar's search field; Escape clears it (and leaves it when already empty). */
export function SearchBox({ value, onChange, ref }: Props) {
  const t = useTranslations('search');
  return (
    <input
      ref={ref}
      type="search"
      aria-label={t('label')}
      placeholder={t('placeholder')}
      value={value}
      maxLength={200}
      autoComplete="off"
      spellCheck={false}
      onChange={(e) => onChange(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        // An input method's Escape (closing its candidates) is not ours, nor the browser's: Chromium empties a
        // search field on Escape, whatever was typed before the composition.
        if (isInputMethodKey(e)) return e.preventDefault();
        // Handled here: the chat's own Escape (Stop) must not also fire.
        e.preventDefault();
        e.stopPropagation();
        if (value) onChange('');
        else e.currentTarget.blur();
      }}
      className="mt-2 w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm placeholder:text-zinc-400 focus:border-blue-500 focus:outline-none dark:border-zinc-700 dark:bg-zinc-900"
    />
  );
}
