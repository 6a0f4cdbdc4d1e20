'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState } from 'react';
import { useTypedBeforeHydration } from '@/app/_components/use-typed-before-hydration';
import { applyTheme, readTheme, THEMES, type Theme } from '@/lib/theme';

/** Light / Dark / System; "System" follows the operating system's setting as it changes. */
export function ThemeSelect() {
  const t = useTranslations('theme');
  const id = useId();
  // The server cannot know the stored choice: "system" until hydrated, then the stored one.
  const [theme, setTheme] = useState<Theme>('system');
  const select = useRef<HTMLSelectElement>(null);
  // Picked before hydration: that is the choice (it runs before the stored one is read below).
  useTypedBeforeHydration(select, theme, (picked) => choose(picked as Theme));
  useEffect(() => setTheme(readTheme()), []);

  function choose(next: Theme) {
    setTheme(next);
    applyTheme(next);
  }

  useEffect(() => {
    if (theme !== 'system') return;
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => applyTheme('system');
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [theme]);

  return (
    <span className="flex items-center gap-1 text-zinc-600 dark:text-zinc-400">
      <label htmlFor={id}>{t('label')}</label>
      <select
        ref={select}
        // A browser's restored form state (Firefox, on reload) is not a choice to adopt.
        autoComplete="off"
        id={id}
        value={theme}
        onChange={(e) => choose(e.currentTarget.value as Theme)}
        className="rounded border border-zinc-300 bg-white px-1 py-0.5 text-xs dark:border-zinc-700 dark:bg-zinc-900"
      >
        {THEMES.map(({ value }) => (
          <option key={value} value={value}>
            {t(value)}
          </option>
        ))}
      </select>
    </span>
  );
}
