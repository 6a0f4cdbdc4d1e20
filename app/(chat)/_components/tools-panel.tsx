import type { ToolSettings } from '@/lib/schemas/chat';
import { ComposerPanel } from './composer-panel';
import {
  enabledTools,
  formatTokens,
  isToolSearchOn,
  MODE_LABELS,
  modeOf,
  type ToolCatalog,
} from './tool-selection';

type Props = { catalog: ToolCatalog | null; settings: ToolSettings; onEdit: () => void; onClose: () => void };

/** `/tools`: the servers and tools this conversation can use right now. */
export function ToolsPanel({ catalog, settings, onEdit, onClose }: Props) {
  const mode = modeOf(settings);
  const { servers, count, tokens } = enabledTools(catalog, settings);
  return (
    <ComposerPanel title="Tools in this conversation" onClose={onClose}>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Mode: {MODE_LABELS[mode]}
        {mode === 'off'
          ? ' — no tools are sent to the model.'
          : ` · ${count} tools · ~${formatTokens(tokens)} tokens per request`}
        {isToolSearchOn(catalog, mode, count, tokens) &&
          ' · tool search on: the model searches these tools and loads only the ones it finds'}
      </p>
      {!catalog ? (
        <p className="mt-2 text-xs text-zinc-500">Loading…</p>
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
                  <p className="text-xs text-zinc-500">No tools enabled.</p>
                )}
              </li>
            ))}
            {!servers.length && <li className="text-xs text-zinc-500">No servers enabled.</li>}
          </ul>
        )
      )}
      <button
        type="button"
        onClick={onEdit}
        className="mt-3 rounded-md border border-zinc-300 px-2.5 py-1 text-xs hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
      >
        Change tool settings
      </button>
    </ComposerPanel>
  );
}
