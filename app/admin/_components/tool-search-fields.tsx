'use client';

import { useId } from 'react';
import { inputClass } from './field';

type Patch = { toolSearchMaxTools: number; toolSearchMaxTokens: number };

const FIELDS = [
  {
    key: 'toolSearchMaxTools',
    label: 'Tool search above this many tools',
    help:
      'When a conversation carries more tools than this, the model is sent one search tool instead of ' +
      'every tool, and loads only the tools it finds. Many tools cost tokens and make the model choose worse.',
    min: 1,
    max: 10_000,
  },
  {
    key: 'toolSearchMaxTokens',
    label: 'Tool search above this many schema tokens',
    help:
      'The same, when the tools’ definitions are estimated above this many tokens (about 4 characters ' +
      'each), whatever their number. Users see in the composer when tool search is on.',
    min: 500,
    max: 1_000_000,
  },
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
        Tool search
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map((f) => (
          <div key={f.key} className="space-y-1 text-sm">
            <label htmlFor={`${id}-${f.key}`} className="block font-medium">
              {f.label}
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
              {f.help}
            </p>
          </div>
        ))}
      </div>
      <button
        type="submit"
        className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm dark:border-zinc-700"
      >
        Save tool search
      </button>
    </form>
  );
}
