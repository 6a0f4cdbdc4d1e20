'use client';

import { useEffect } from 'react';
import type { MenuOption } from './composer-commands';

type Props = {
  id: string;
  label: string;
  options: MenuOption[];
  active: number;
  onPick: (option: MenuOption) => void;
  onHighlight: (index: number) => void;
};

/**
 * The `/` and `@` menus, drawn above the composer (its wrapper is `relative`). Focus stays in the message box,
 * which points at the highlighted option with aria-activedescendant; option ids are `<id>-<index>`.
 */
export function MenuListbox({ id, label, options, active, onPick, onHighlight }: Props) {
  useEffect(() => {
    document.getElementById(`${id}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [id, active]);

  return (
    <div
      id={id}
      role="listbox"
      aria-label={label}
      className="absolute inset-x-0 bottom-full z-30 mb-2 max-h-[min(18rem,50vh)] overflow-y-auto rounded-xl border border-zinc-200 bg-white p-1 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
    >
      {options.map((o, i) => (
        <div
          key={o.key}
          id={`${id}-${i}`}
          role="option"
          tabIndex={-1}
          aria-selected={i === active}
          aria-disabled={o.disabled || undefined}
          // Keep focus (and the caret) in the message box.
          onMouseDown={(e) => e.preventDefault()}
          onMouseMove={() => !o.disabled && i !== active && onHighlight(i)}
          onClick={() => !o.disabled && onPick(o)}
          onKeyDown={(e) => e.key === 'Enter' && !o.disabled && onPick(o)}
          className={`cursor-pointer rounded-lg px-3 py-1.5 aria-disabled:cursor-not-allowed aria-disabled:opacity-50 ${
            i === active ? 'bg-zinc-100 dark:bg-zinc-800' : ''
          }`}
        >
          <span className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-mono font-medium text-zinc-900 dark:text-zinc-100">{o.label}</span>
            {o.note && <span className="min-w-0 truncate text-xs text-zinc-500">{o.note}</span>}
          </span>
          {o.detail && (
            <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">{o.detail}</span>
          )}
        </div>
      ))}
    </div>
  );
}
