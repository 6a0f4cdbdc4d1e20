'use client';

import { useTranslations } from 'next-intl';
import { type ChangeEvent, useId, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { Modal } from '@/app/_components/modal';
import { useFailureText } from '@/app/_components/failure-text';
import { adminFetch } from '@/app/admin/_components/admin-fetch';

type ImportResult = {
  added: string[];
  updated: string[];
  unchanged: string[];
  /** Masked values (••••••, as an export writes them) that keep the stored secret. */
  kept: Array<{ name: string; keys: string[] }>;
  errors: Array<{ name: string; message: string }>;
};
type Props = { onApplied: () => void; onClose: () => void };

const MAX_BYTES = 1024 * 1024;
const BUTTON =
  'rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100 disabled:opacity-50 aria-disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800';
const PLACEHOLDER =
  '{\n  "mcpServers": {\n    "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/share"] }\n  }\n}';

function NameList({ kind, title, names }: { kind: string; title: string; names: string[] }) {
  const t = useTranslations('admin.mcpImport');
  return (
    <section aria-label={title} data-import-list={kind}>
      <h3 className="text-sm font-medium">{t('listTitle', { title, count: names.length })}</h3>
      {names.length ? (
        <ul className="mt-1 flex flex-wrap gap-1">
          {names.map((n) => (
            <li key={n}>
              <code className="rounded bg-zinc-100 px-1 text-xs dark:bg-zinc-800">{n}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-zinc-500">{t('none')}</p>
      )}
    </section>
  );
}

/** Paste or pick a Claude Desktop `{"mcpServers": {…}}` config, preview what changes (dry run), then apply it. */
export function McpImportDialog({ onApplied, onClose }: Props) {
  const t = useTranslations('admin.mcpImport');
  const failureText = useFailureText();
  const base = useId();
  const [text, setText] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ applied: boolean; data: ImportResult } | null>(null);
  const [busy, setBusy] = useState(false);

  function change(next: string) {
    setText(next);
    setInputError(null);
    setError(null);
    setResult(null);
  }

  function pickFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > MAX_BYTES) return setInputError(t('tooLarge', { name: file.name }));
    const reader = new FileReader();
    reader.onload = () => change(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => setInputError(t('unreadable', { name: file.name }));
    reader.readAsText(file);
  }

  /** The textarea as JSON, or null with an inline error; the server checks the entries themselves. */
  function parsed(): { mcpServers: unknown } | null {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      setInputError(t('invalidJson', { message: err instanceof Error ? err.message : t('cannotParse') }));
      return null;
    }
    const servers = (value as { mcpServers?: unknown } | null)?.mcpServers;
    if (typeof value !== 'object' || !servers || typeof servers !== 'object' || Array.isArray(servers)) {
      setInputError(t('notConfig'));
      return null;
    }
    return value as { mcpServers: unknown };
  }

  async function send(apply: boolean) {
    if (busy || (apply && (!result || result.applied))) return;
    const body = parsed();
    if (!body) return;
    setBusy(true);
    setError(null);
    try {
      const data = await adminFetch<ImportResult>(`/api/mcp/servers/import${apply ? '' : '?dryRun=1'}`, {
        method: 'POST',
        json: body,
      });
      setResult({ applied: apply, data });
      if (apply) {
        onApplied();
        if (data.errors.length === 0) onClose();
      }
    } catch (err) {
      setError(failureText(err));
    } finally {
      setBusy(false);
    }
  }

  const data = result?.data;
  return (
    <Modal
      title={t('title')}
      onClose={onClose}
      closeOnOutsideClick={false}
      className="max-h-[calc(100dvh-1rem)] w-[36rem] max-w-[calc(100vw-1rem)] p-4 sm:p-5"
    >
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('intro')}</p>
      <div className="mt-3 space-y-3">
        <div>
          <label htmlFor={`${base}-file`} className="block text-sm font-medium">
            {t('file')}
          </label>
          <input
            id={`${base}-file`}
            type="file"
            accept=".json,application/json"
            onChange={pickFile}
            className="mt-1 block w-full text-sm"
          />
        </div>
        <div>
          <label htmlFor={`${base}-json`} className="block text-sm font-medium">
            {t('json')}
          </label>
          <textarea
            id={`${base}-json`}
            value={text}
            onChange={(e) => change(e.target.value)}
            rows={10}
            spellCheck={false}
            autoCapitalize="off"
            placeholder={PLACEHOLDER}
            aria-invalid={inputError ? true : undefined}
            aria-describedby={inputError ? `${base}-json-error` : undefined}
            className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 font-mono text-xs aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-950"
          />
          {inputError && (
            <p
              id={`${base}-json-error`}
              role="alert"
              className="mt-1 break-words text-xs text-red-700 dark:text-red-400"
            >
              {inputError}
            </p>
          )}
        </div>
        {error && (
          <p role="alert" className="break-words text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        {data && (
          <div
            data-import-result={result.applied ? 'applied' : 'preview'}
            className="space-y-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-700"
          >
            <NameList kind="added" title={result.applied ? t('added') : t('willAdd')} names={data.added} />
            <NameList
              kind="updated"
              title={result.applied ? t('updated') : t('willUpdate')}
              names={data.updated}
            />
            <NameList kind="unchanged" title={t('unchanged')} names={data.unchanged} />
            {data.kept.length > 0 && (
              <section aria-label={t('kept')} data-import-list="kept">
                <h3 className="text-sm font-medium">
                  {t('listTitle', { title: t('kept'), count: data.kept.length })}
                </h3>
                <p className="text-xs text-zinc-500">{t('keptHelp')}</p>
                <ul className="mt-1 space-y-1 text-xs">
                  {data.kept.map((k) => (
                    <li key={k.name} className="break-words">
                      <code className="font-semibold">{k.name}</code>:{' '}
                      {t('keptKeys', { keys: k.keys.join(', ') })}
                    </li>
                  ))}
                </ul>
              </section>
            )}
            {data.errors.length > 0 && (
              <section aria-label={t('errors')} data-import-list="errors">
                <h3 className="text-sm font-medium text-red-700 dark:text-red-400">
                  {t('errorsTitle', { count: data.errors.length })}
                </h3>
                <ul className="mt-1 space-y-1 text-xs">
                  {data.errors.map((e) => (
                    <li key={e.name} className="break-words">
                      <code className="font-semibold">{e.name}</code>: {e.message}
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </div>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" onClick={onClose} className={`${BUTTON} mr-auto`}>
            {result?.applied ? t('close') : t('cancel')}
          </button>
          <BusyButton
            type="button"
            onClick={() => void send(false)}
            disabled={!text.trim()}
            busy={busy}
            className={BUTTON}
          >
            {t('preview')}
          </BusyButton>
          {/* Unavailable like a busy button also until there is a preview, and once applied. */}
          <BusyButton
            type="button"
            onClick={() => void send(true)}
            busy={busy || !result || result.applied}
            className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-zinc-700 aria-disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
          >
            {t('apply')}
          </BusyButton>
        </div>
      </div>
    </Modal>
  );
}
