import { useTranslations } from 'next-intl';
import type { ToolSettings } from '@/lib/schemas/chat';
import { ComposerPanel } from './composer-panel';
import { enabledTools, formatTokens, isToolSearchOn, modeOf, type ToolCatalog } from './tool-selection';

type Props = { catalog: ToolCatalog | null; settings: ToolSettings; onEdit: () => void; onClose: () => void };

/** `/tools`: the servers and tools this conversation can use right now. */
export function ToolsPanel({ catalog, settings, onEdit, onClose }: Props) {
  const t = useTranslations('toolsPanel');
  const mode = modeOf(settings);
  const { servers, count, tokens } = enabledTools(catalog, settings);
  return (
    <ComposerPanel title={t('title')} onClose={onClose}>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {t('mode', { mode: t(`modes.${mode}`) })}
        {mode === 'off' ? ` — ${t('off')}` : ` · ${t('counts', { count, tokens: formatTokens(tokens) })}`}
        {isToolSearchOn(catalog, mode, count, tokens) && ` · ${t('searchOn')}`}
      </p>
      {!catalog ? (
        <p className="mt-2 text-xs text-zinc-500">{t('loading')}</p>
      ) : (
        mode !== 'off' && (
          <ul className="mt-2 space-y-2">
            {servers.map((s) => (
              <li key={s.name}>
                <p className="font-medium">{s.name}</p>
                {s.tools.length ? (
                  <ul className="mt-0.5 flex flex-wrap gap-1">
                    {s.tools.map((t) => (
                      <li
                        key={t.name}
                        title={t.description}
                        className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs dark:bg-zinc-800"
                      >
                        {s.name}.{t.name}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-xs text-zinc-500">{t('noTools')}</p>
                )}
              </li>
            ))}
            {!servers.length && <li className="text-xs text-zinc-500">{t('noServers')}</li>}
          </ul>
        )
      )}
      <button
        type="button"
        onClick={onEdit}
        className="mt-3 rounded-md border border-zinc-300 px-2.5 py-1 text-xs hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
      >
        {t('change')}
      </button>
    </ComposerPanel>
  );
}
