'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { inputClass } from './field';

type Patch = { toolSearchMaxTools: number; toolSearchMaxTokens: number };

const FIELDS = [
  { key: 'toolSearchMaxTools', min: 1, max: 10_000 },
  { key: 'toolSearchMaxTokens', min: 500, max: 1_000_000 },
] as const;

/** The two bounds above which a chat turn sends the built-in tool search instead of every tool. */
export function ToolSearchFields({
  maxTools,
  maxTokens,
  onSave,
}: {
  maxTools: number;
  maxTokens: number;
  onSave: (patch: Patch) => void;
}) {
  const t = useTranslations('admin.toolSearch');
  const id = useId();
  const values: Patch = { toolSearchMaxTools: maxTools, toolSearchMaxTokens: maxTokens };
  return (
    <form
      aria-labelledby={`${id}-title`}
      className="space-y-3 border-t border-zinc-200 pt-3 dark:border-zinc-800"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        onSave({
          toolSearchMaxTools: Number(data.get('toolSearchMaxTools')),
          toolSearchMaxTokens: Number(data.get('toolSearchMaxTokens')),
        });
      }}
    >
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        {t('title')}
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map((f) => (
          <div key={f.key} className="space-y-1 text-sm">
            <label htmlFor={`${id}-${f.key}`} className="block font-medium">
              {t(`${f.key}.label`)}
            </label>
            <input
              id={`${id}-${f.key}`}
              name={f.key}
              type="number"
              min={f.min}
              max={f.max}
              required
              defaultValue={values[f.key]}
              aria-describedby={`${id}-${f.key}-help`}
              className={inputClass}
            />
            <p id={`${id}-${f.key}-help`} className="text-xs text-zinc-500">
              {t(`${f.key}.help`)}
            </p>
          </div>
        ))}
      </div>
      <button
        type="submit"
        className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm dark:border-zinc-700"
      >
        {t('save')}
      </button>
    </form>
  );
}
