'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { useFailureText } from '@/app/_components/failure-text';
import { adminFetch } from '@/app/admin/_components/admin-fetch';
import { LOG_LEVELS } from '@/lib/schemas/mcp';

/** One log message a server sent (notifications/message): its data as text, secrets masked, cut. */
export type LogMessageView = {
  at: string;
  level: string;
  logger: string | null;
  text: string;
  user: string | null;
};

const LEVEL_STYLE: Record<string, string> = {
  debug: 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300',
  info: 'bg-blue-100 text-blue-800 dark:bg-blue-900 dark:text-blue-200',
  notice: 'bg-blue-100 text-blue-800 dark:bg-blue-900 dark:text-blue-200',
  warning: 'bg-amber-100 text-amber-800 dark:bg-amber-900 dark:text-amber-200',
};
const SEVERE = 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200';

type Props = {
  id: string;
  messages: LogMessageView[];
  /** The server's configured logLevel (null: the server's own default). */
  logLevel: string | null;
  onSaved: () => void;
};

/**
 * The server's log messages, newest first, and the level it is asked to log at (saved as the server's
 * `logLevel`; the server reconnects and is sent logging/setLevel). All of it plain text.
 */
export function ServerLogMessages({ id, messages, logLevel, onSaved }: Props) {
  const t = useTranslations('admin.logMessages');
  const failureText = useFailureText();
  const format = useFormatter();
  const selectId = useId();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(level: string) {
    if (saving) return; // the list is controlled: an ignored change leaves it on the level being saved
    setSaving(true);
    setError(null);
    try {
      await adminFetch(`/api/mcp/servers/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        json: { logLevel: level === '' ? null : level },
      });
      onSaved();
    } catch (err) {
      setError(failureText(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-medium text-zinc-500">{t('title')}</h3>
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={selectId}>{t('level')}</label>
          <select
            id={selectId}
            value={logLevel ?? ''}
            // Busy: aria-disabled, not disabled (why: see busy-button.tsx).
            aria-disabled={saving || undefined}
            onChange={(e) => void save(e.target.value)}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 aria-disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-950"
          >
            <option value="">{t('serverDefault')}</option>
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {t('andAbove', { level: l })}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error && (
        <p role="alert" className="mt-1 break-words text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {messages.length === 0 ? (
        <p className="mt-1 text-sm text-zinc-500">{t('none')}</p>
      ) : (
        <ul
          data-log-messages
          className="mt-1 max-h-64 space-y-0.5 overflow-auto rounded-md border border-zinc-200 bg-zinc-50 p-2 font-mono text-xs dark:border-zinc-800 dark:bg-zinc-950"
        >
          {[...messages].reverse().map((m, i) => (
            <li key={`${m.at}-${i}`} data-log-level={m.level} className="whitespace-pre-wrap break-all">
              <time dateTime={m.at} className="text-zinc-500">
                {format.dateTime(new Date(m.at), { timeStyle: 'medium' })}
              </time>{' '}
              <span className={`rounded px-1 ${LEVEL_STYLE[m.level] ?? SEVERE}`}>{m.level}</span>{' '}
              {m.user && <span className="text-zinc-500">[{m.user}] </span>}
              {m.logger && <span className="font-semibold">{m.logger}: </span>}
              <span data-log-text>{m.text}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
