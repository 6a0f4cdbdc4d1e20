'use client';

import { useTranslations } from 'next-intl';
import type { AppContextNote } from './mcp-app-host';

/** Context MCP Apps shared, waiting above the composer for the next message (each marked with its app). */
export function AppContextNotes({
  notes,
  onDrop,
}: {
  notes: ReadonlyArray<[string, AppContextNote]>;
  onDrop: (toolCallId: string) => void;
}) {
  const t = useTranslations('mcpApps');
  if (!notes.length) return null;
  return (
    <ul className="mb-2 space-y-1">
      {notes.map(([id, note]) => (
        <li
          key={id}
          data-app-context-pending={note.server}
          className="flex items-start gap-2 rounded border border-violet-200 bg-violet-50 px-2 py-1 text-xs text-violet-900 dark:border-violet-800 dark:bg-violet-950 dark:text-violet-100"
        >
          <span className="min-w-0 flex-1">
            <span className="font-medium">
              {t('contextFromApp', { server: note.server, tool: note.tool })}
            </span>
            {' · '}
            <span className="text-violet-700 dark:text-violet-300">{t('contextPending')}</span>
            <span className="block truncate">{note.text}</span>
          </span>
          <button
            type="button"
            onClick={() => onDrop(id)}
            className="shrink-0 rounded px-1 hover:bg-violet-100 dark:hover:bg-violet-900"
          >
            {t('dropContext')}
          </button>
        </li>
      ))}
    </ul>
  );
}
