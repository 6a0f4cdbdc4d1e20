'use client';

import { useEffect, useId, useRef } from 'react';
import type { ToolMode, ToolSettings } from '@/lib/schemas/chat';
import { ToolLimitInput } from './tool-limit-input';
import { ToolServerRow } from './tool-server-row';
import {
  enabledTools,
  formatTokens,
  isHeavy,
  isToolSearchOn,
  MODE_LABELS,
  modeOf,
  SCHEMA_LIMITS,
  type ToolCatalog,
  toolSearchLabel,
} from './tool-selection';

type Props = {
  catalog: ToolCatalog | null;
  failed: boolean;
  settings: ToolSettings;
  onChange: (next: ToolSettings) => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onReload: () => void;
};

const MODES: Array<{ mode: ToolMode; hint: string }> = [
  { mode: 'off', hint: 'no tools sent' },
  { mode: 'auto', hint: 'the model decides' },
  { mode: 'required', hint: 'the first step must call a tool' },
];

/**
 * The "Tools" button and its popover: tool mode, servers and tools for this conversation, and step limits.
 * The popover is positioned against the nearest `relative` ancestor (the composer), above it.
 */
export function ToolMenu({ catalog, failed, settings, onChange, open, onOpenChange, onReload }: Props) {
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const name = useId();
  const mode = modeOf(settings);
  const { count, tokens } = enabledTools(catalog, settings);
  const searchOn = isToolSearchOn(catalog, mode, count, tokens);
  // Tool search answers the cost of a big catalog: no warning then.
  const heavy = isHeavy(count, tokens) && !searchOn;
  const limits = catalog?.limits ?? SCHEMA_LIMITS;

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) onOpenChange(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open, onOpenChange]);

  const label = `Tools · ${MODE_LABELS[mode]}${mode !== 'off' && catalog ? ` · ${count}` : ''}`;
  return (
    <div ref={root} className="contents">
      <button
        ref={button}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => onOpenChange(!open)}
        className={`rounded-full border px-2.5 py-0.5 text-xs hover:bg-zinc-100 dark:hover:bg-zinc-800 ${
          heavy && mode !== 'off'
            ? 'border-amber-400 text-amber-700 dark:border-amber-600 dark:text-amber-400'
            : 'border-zinc-300 text-zinc-600 dark:border-zinc-700 dark:text-zinc-300'
        }`}
      >
        {label}
      </button>
      {searchOn && (
        <span
          role="status"
          aria-label={toolSearchLabel(count, tokens)}
          title="The model gets a search tool and loads only the tools it finds, not every definition."
          data-tool-search
          className="rounded-full bg-sky-100 px-2 py-0.5 text-sky-800 dark:bg-sky-950 dark:text-sky-200"
        >
          {toolSearchLabel(count, tokens)}
        </span>
      )}
      {open && (
        <div
          role="dialog"
          aria-label="Tool settings"
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            e.stopPropagation();
            onOpenChange(false);
            button.current?.focus();
          }}
          className="absolute inset-x-0 bottom-full z-30 mb-2 max-h-[min(32rem,70vh)] overflow-y-auto rounded-xl border border-zinc-200 bg-white p-3 text-sm text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <p id={name} className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
            Tool mode
          </p>
          <div role="radiogroup" aria-labelledby={name} className="flex flex-wrap gap-x-4 gap-y-1">
            {MODES.map((m) => (
              <label key={m.mode} className="flex items-center gap-1.5" title={m.hint}>
                <input
                  type="radio"
                  name={`${name}-mode`}
                  checked={mode === m.mode}
                  onChange={() => onChange({ ...settings, toolMode: m.mode })}
                />
                {MODE_LABELS[m.mode]}
              </label>
            ))}
          </div>
          <p className="mt-1 text-xs text-zinc-500">{MODES.find((m) => m.mode === mode)?.hint}</p>

          <h3 className="mt-3 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Servers</h3>
          {!catalog ? (
            <p className="py-2 text-xs text-zinc-500">{failed ? 'Could not load the tools.' : 'Loading…'}</p>
          ) : catalog.servers.length ? (
            <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {catalog.servers.map((s) => (
                <ToolServerRow
                  key={s.name}
                  server={s}
                  catalog={catalog}
                  settings={settings}
                  onChange={onChange}
                  onReload={onReload}
                />
              ))}
            </ul>
          ) : (
            <p className="py-2 text-xs text-zinc-500">No MCP servers are enabled.</p>
          )}

          <p
            aria-live="polite"
            data-tool-summary
            className={`mt-2 text-xs ${heavy ? 'font-medium text-amber-700 dark:text-amber-400' : 'text-zinc-600 dark:text-zinc-400'}`}
          >
            {count} tools · ~{formatTokens(tokens)} tokens per request
            {mode === 'off' && ' (mode Off: none are sent)'}
            {heavy && mode !== 'off' && ' — many tools cost tokens and can confuse the model'}
            {searchOn && ' — tool search on: the model gets a search tool and loads only the tools it finds'}
          </p>

          <div className="mt-3 flex gap-3">
            <ToolLimitInput
              label="Max steps"
              value={settings.maxSteps}
              max={limits.maxSteps}
              onChange={(v) => onChange({ ...settings, maxSteps: v })}
            />
            <ToolLimitInput
              label="Max tool calls"
              value={settings.maxToolCalls}
              max={limits.maxToolCalls}
              onChange={(v) => onChange({ ...settings, maxToolCalls: v })}
            />
          </div>
          <p className="mt-1 text-xs text-zinc-500">
            Empty = the admin&apos;s limit, which you can only lower.
          </p>
        </div>
      )}
    </div>
  );
}
