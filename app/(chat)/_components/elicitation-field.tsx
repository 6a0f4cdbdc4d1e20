'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import type { ElicitField, ElicitValue } from '@/lib/elicitation-form';

const INPUT =
  'w-full rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900';

const INPUT_TYPE: Record<string, string> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
};

const dateTimeValue = (v: string) => (Number.isNaN(Date.parse(v)) ? v : new Date(v).toISOString());

/** One field of a server's form (MCP elicitation), labelled, with its description or error under it. */
export function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: ElicitField;
  value: ElicitValue | undefined;
  error?: string;
  onChange: (v: ElicitValue | undefined) => void;
}) {
  const t = useTranslations('elicitation');
  const id = useId();
  const hint = [field.description, error].filter(Boolean).join(' — ');
  const described = hint ? `${id}-hint` : undefined;
  const label = `${field.label}${field.required ? ' *' : ''}`;
  const note = hint && (
    <p id={`${id}-hint`} className={`text-xs ${error ? 'text-red-700 dark:text-red-300' : 'text-zinc-500'}`}>
      {hint}
    </p>
  );
  if (field.kind === 'boolean')
    return (
      <div>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={value === true}
            aria-describedby={described}
            onChange={(e) => onChange(e.target.checked)}
          />
          {label}
        </label>
        {note}
      </div>
    );
  if (field.kind === 'multi') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset aria-describedby={described}>
        <legend className="text-sm">{label}</legend>
        <div className="flex flex-wrap gap-3">
          {field.options.map((o) => (
            <label key={o.value} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={chosen.includes(o.value)}
                onChange={(e) =>
                  onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((c) => c !== o.value))
                }
              />
              {o.label}
            </label>
          ))}
        </div>
        {note}
      </fieldset>
    );
  }
  let control: React.ReactNode;
  if (field.kind === 'select') {
    control = (
      <select
        id={id}
        className={INPUT}
        value={typeof value === 'string' ? value : ''}
        aria-describedby={described}
        aria-invalid={Boolean(error)}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">{t('choose')}</option>
        {field.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'number') {
    control = (
      <input
        id={id}
        type="number"
        className={INPUT}
        min={field.min}
        max={field.max}
        step={field.integer ? 1 : 'any'}
        value={typeof value === 'number' ? value : ''}
        aria-describedby={described}
        aria-invalid={Boolean(error)}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    );
  } else {
    const type = field.format && INPUT_TYPE[field.format];
    control = (
      <input
        id={id}
        type={type ?? 'text'}
        className={INPUT}
        minLength={field.minLength}
        maxLength={field.maxLength}
        value={typeof value === 'string' ? value : ''}
        aria-describedby={described}
        aria-invalid={Boolean(error)}
        onChange={(e) =>
          onChange(
            e.target.value === ''
              ? undefined
              : field.format === 'date-time'
                ? dateTimeValue(e.target.value)
                : e.target.value,
          )
        }
      />
    );
  }
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm">
        {label}
      </label>
      {control}
      {note}
    </div>
  );
}
