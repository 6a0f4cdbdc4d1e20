'use client';

import { ChevronDown, ChevronRight } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import type { ToolSettings, ToolToggle } from '@/lib/schemas/chat';
import { ServerConnect } from './server-connect';
import { type CatalogServer, formatTokens, isAvailable, isServerOn, isToolOn } from './tool-selection';

type Props = {
  server: CatalogServer;
  settings: ToolSettings;
  /** A switch of the server or one of its tools (applied to the stored settings, see lib/tool-toggles). */
  onToggle: (toggle: ToolToggle) => void;
  /** Fetch the catalog again (after the user supplied values or signed in). */
  onReload: () => void;
};

/** One MCP server in the Tools menu: a checkbox, and its tools as checkboxes once expanded. */
export function ToolServerRow({ server, settings, onToggle, onReload }: Props) {
  const tm = useTranslations('toolMenu');
  const [expanded, setExpanded] = useState(false);
  const box = useRef<HTMLInputElement>(null);
  const available = isAvailable(server);
  const on = available && isServerOn(settings, server.name);
  const enabled = on ? server.tools.filter((t) => isToolOn(settings, server.name, t.name)) : [];
  const partial = on && enabled.length > 0 && enabled.length < server.tools.length;
  const tokens = enabled.reduce((sum, t) => sum + t.tokens, 0);

  useEffect(() => {
    if (box.current) box.current.indeterminate = partial;
  }, [partial]);

  return (
    <li data-tool-server={server.name} className="py-1.5">
      <div className="flex items-center gap-2">
        <label className={`flex min-w-0 flex-1 items-center gap-2 ${available ? '' : 'opacity-60'}`}>
          <input
            ref={box}
            type="checkbox"
            checked={on}
            disabled={!available}
            onChange={(e) => onToggle({ server: server.name, on: e.target.checked })}
          />
          <span className="truncate font-medium">{server.name}</span>
        </label>
        {available ? (
          <>
            <span className="shrink-0 text-xs text-zinc-500">
              {enabled.length}/{server.tools.length} · ~{formatTokens(tokens)}
            </span>
            <button
              type="button"
              aria-expanded={expanded}
              aria-label={tm(expanded ? 'hideTools' : 'showTools', { name: server.name })}
              onClick={() => setExpanded((x) => !x)}
              disabled={!server.tools.length}
              className="shrink-0 rounded px-1.5 text-xs text-zinc-500 hover:bg-zinc-100 disabled:opacity-40 dark:hover:bg-zinc-800"
            >
              {expanded ? (
                <ChevronDown aria-hidden className="size-3.5" />
              ) : (
                <ChevronRight aria-hidden className="size-3.5" />
              )}
            </button>
          </>
        ) : (
          <span className="shrink-0 text-xs text-amber-700 dark:text-amber-400">{server.status}</span>
        )}
      </div>
      {!available && server.error && (
        <p className="mt-0.5 ml-6 text-xs break-words text-zinc-500">{server.error}</p>
      )}
      <ServerConnect server={server} onConnected={onReload} rowSwitch={box} />
      {available && expanded && (
        <ul className="mt-1 ml-6 space-y-1">
          {server.tools.map((t) => (
            <li key={t.name} className="flex items-start gap-2 text-xs">
              <label className="flex min-w-0 flex-1 items-start gap-2" title={t.description}>
                <input
                  type="checkbox"
                  className="mt-0.5"
                  checked={isToolOn(settings, server.name, t.name)}
                  onChange={(e) => onToggle({ server: server.name, tool: t.name, on: e.target.checked })}
                />
                <span className="min-w-0 font-mono break-all">
                  {server.name}.{t.name}
                </span>
              </label>
              <span className="shrink-0 text-zinc-500">~{formatTokens(t.tokens)}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
