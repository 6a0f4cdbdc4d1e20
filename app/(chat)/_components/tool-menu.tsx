'use client';

import * as Popover from '@radix-ui/react-popover';
import { useTranslations } from 'next-intl';
import { useId, useLayoutEffect } from 'react';
import { isInputMethodKey } from '@/app/_components/input-method';
import type { ToolMode } from '@/lib/schemas/chat';
import { ToolLimitInput } from './tool-limit-input';
import { ToolServerRow } from './tool-server-row';
import {
  enabledTools,
  formatTokens,
  isHeavy,
  isToolSearchOn,
  modeOf,
  SCHEMA_LIMITS,
  type ToolCatalog,
} from './tool-selection';
import type { ToolSettingsControl } from './use-tool-settings';

type Props = {
  catalog: ToolCatalog | null;
  failed: boolean;
  control: ToolSettingsControl;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onReload: () => void;
};

const MODES: ToolMode[] = ['off', 'auto', 'required'];

/**
 * The "Tools" button and its popover (Radix Popover, "Tool settings"): tool mode, servers and tools for this
 * conversation, and step limits. Above the button, kept inside the screen at a phone's width; Escape or a
 * click outside closes it and focus goes back to the button.
 */
export function ToolMenu({ catalog, failed, control, open, onOpenChange, onReload }: Props) {
  const t = useTranslations('toolMenu');
  const name = useId();
  const { settings, change, refresh, failure, busy } = control;
  // Opened: what is stored now (another tab may have switched something since this one last saved). Before
  // the menu is painted, so it shows busy from the start.
  useLayoutEffect(() => {
    if (open) refresh();
  }, [open, refresh]);
  const mode = modeOf(settings);
  const { count, tokens } = enabledTools(catalog, settings);
  const searchOn = isToolSearchOn(catalog, mode, count, tokens);
  // Tool search answers the cost of a big catalog: no warning then.
  const heavy = isHeavy(count, tokens) && !searchOn;
  const limits = catalog?.limits ?? SCHEMA_LIMITS;

  const label = `${t('button', { mode: t(`modes.${mode}`) })}${mode !== 'off' && catalog ? ` · ${count}` : ''}`;
  const searchLabel = t('searchOn', { count, tokens: formatTokens(tokens) });
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger
        className={`rounded-full border px-2.5 py-0.5 text-xs hover:bg-zinc-100 dark:hover:bg-zinc-800 ${
          heavy && mode !== 'off'
            ? 'border-amber-400 text-amber-700 dark:border-amber-600 dark:text-amber-400'
            : 'border-zinc-300 text-zinc-600 dark:border-zinc-700 dark:text-zinc-300'
        }`}
      >
        {label}
      </Popover.Trigger>
      {searchOn && (
        <span
          role="status"
          aria-label={searchLabel}
          title={t('searchHint')}
          data-tool-search
          className="rounded-full bg-sky-100 px-2 py-0.5 text-sky-800 dark:bg-sky-950 dark:text-sky-200"
        >
          {searchLabel}
        </span>
      )}
      <Popover.Portal>
        <Popover.Content
          aria-label={t('settings')}
          aria-busy={busy || undefined}
          side="top"
          align="start"
          sideOffset={8}
          collisionPadding={8}
          // Escape that closes an input method's candidates (typing in a limit or a value) is not a close.
          onEscapeKeyDown={(e) => isInputMethodKey(e) && e.preventDefault()}
          className="z-30 max-h-[min(32rem,70vh,var(--radix-popover-content-available-height))] w-[min(36rem,calc(100vw-1rem))] overflow-y-auto rounded-xl border border-zinc-200 bg-white p-3 text-sm text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <p id={name} className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
            {t('mode')}
          </p>
          <div role="radiogroup" aria-labelledby={name} className="flex flex-wrap gap-x-4 gap-y-1">
            {MODES.map((m) => (
              <label key={m} className="flex items-center gap-1.5" title={t(`hints.${m}`)}>
                <input
                  type="radio"
                  name={`${name}-mode`}
                  checked={mode === m}
                  onChange={() => change({ toolMode: m })}
                />
                {t(`modes.${m}`)}
              </label>
            ))}
          </div>
          <p className="mt-1 text-xs text-zinc-500">{t(`hints.${mode}`)}</p>

          <h3 className="mt-3 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{t('servers')}</h3>
          {!catalog ? (
            <p className="py-2 text-xs text-zinc-500">{failed ? t('loadFailed') : t('loading')}</p>
          ) : catalog.servers.length ? (
            <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {catalog.servers.map((s) => (
                <ToolServerRow
                  key={s.name}
                  server={s}
                  settings={settings}
                  onToggle={(toggle) =>
                    change(
                      { toggles: [toggle] },
                      catalog.servers.map((entry) => entry.name),
                    )
                  }
                  onReload={onReload}
                />
              ))}
            </ul>
          ) : (
            <p className="py-2 text-xs text-zinc-500">{t('noServers')}</p>
          )}

          <p
            aria-live="polite"
            data-tool-summary
            className={`mt-2 text-xs ${heavy ? 'font-medium text-amber-700 dark:text-amber-400' : 'text-zinc-600 dark:text-zinc-400'}`}
          >
            {t('summary', { count, tokens: formatTokens(tokens) })}
            {mode === 'off' && ` ${t('summaryOff')}`}
            {heavy && mode !== 'off' && ` — ${t('summaryHeavy')}`}
            {searchOn && ` — ${t('summarySearch')}`}
          </p>

          <div className="mt-3 flex gap-3">
            <ToolLimitInput
              label={t('maxSteps')}
              value={settings.maxSteps}
              max={limits.maxSteps}
              onChange={(v) => change({ maxSteps: v })}
            />
            <ToolLimitInput
              label={t('maxToolCalls')}
              value={settings.maxToolCalls}
              max={limits.maxToolCalls}
              onChange={(v) => change({ maxToolCalls: v })}
            />
          </div>
          <p className="mt-1 text-xs text-zinc-500">{t('limitsHint')}</p>
          {failure && (
            <p role="alert" data-tool-save-failed className="mt-2 text-xs text-red-600 dark:text-red-400">
              {t('saveFailed')}
              {failure.reason && ` ${failure.reason}`}
            </p>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
