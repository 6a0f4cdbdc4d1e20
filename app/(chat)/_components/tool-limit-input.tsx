'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';

type Props = {
  label: string;
  value: number | null | undefined;
  max: number;
  onChange: (value: number | null) => void;
};

/** A whole-number limit up to `max` (the admin's); empty means that maximum. Out-of-range input is shown as invalid, not applied. */
export function ToolLimitInput({ label, value, max, onChange }: Props) {
  const t = useTranslations('toolMenu');
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? (value == null ? '' : String(value));
  const parsed = shown.trim() === '' ? null : Number(shown);
  const valid = parsed === null || (Number.isInteger(parsed) && parsed >= 1 && parsed <= max);

  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium">
        {label}
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        step={1}
        placeholder={t('limitDefault', { max })}
        value={shown}
        aria-invalid={!valid || undefined}
        onChange={(e) => {
          const next = e.target.value;
          setDraft(next);
          const n = next.trim() === '' ? null : Number(next);
          if (n === null || (Number.isInteger(n) && n >= 1 && n <= max)) onChange(n);
        }}
        onBlur={() => setDraft(null)}
        className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-950"
      />
      {!valid && <span className="text-xs text-red-600 dark:text-red-400">{t('limitRange', { max })}</span>}
    </div>
  );
}
