'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { useFailureText } from '@/app/_components/failure-text';
import { type Definition, DefinitionDiff } from './definition-diff';

export type ToolView = {
  name: string;
  title?: string;
  description: string;
  inputSchema: object;
  annotations?: Record<string, unknown>;
  outputSchema?: unknown;
  enabled: boolean;
  approval: 'auto' | 'ask';
  changed: boolean;
  /** Of a per-user server: how many users are shown a definition that changed since review. */
  changedUsers?: number;
  /** Of a per-user server: each distinct changed definition users are shown, with what was reviewed before. */
  userChanges?: UserChange[];
  /** Whether the admin's own connection lists the tool (else only users' changed views hold it). */
  listed?: boolean;
  previous: Definition | null;
};

export type UserChange = Definition & { hash: string; users: number; previous: Definition | null };

/** `definitions`: with `reviewed`, the hashes of the users' changed definitions shown (accepted exactly). */
export type ToolPatch = {
  enabled?: boolean;
  approval?: 'auto' | 'ask';
  reviewed?: true;
  definitions?: string[];
};

type Props = { tool: ToolView; onPatch: (patch: ToolPatch) => Promise<void> };

const BUTTON =
  'rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-100 aria-disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800';

function annotationLabel(key: string, value: unknown): string {
  if (value === true) return key;
  return `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
}

/**
 * One tool of a server, for review: name, full description and input schema as plain text (they are
 * untrusted and may carry injected instructions, so nothing is rendered as HTML or markdown and nothing
 * is cut), annotations, the enabled switch, the approval policy, and a diff when the definition changed.
 */
export function ToolAdminCard({ tool, onPatch }: Props) {
  const t = useTranslations('admin.tool');
  const failureText = useFailureText();
  const [pending, setPending] = useState<ToolPatch>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const enabled = pending.enabled ?? tool.enabled;
  const approval = pending.approval ?? tool.approval;
  const annotations = Object.entries(tool.annotations ?? {});
  const userChanges = tool.userChanges ?? [];
  const listed = tool.listed ?? true;

  async function patch(body: ToolPatch) {
    // While a change is saved its controls are busy: aria-disabled, and this guard for the box and the list
    // (why: see busy-button.tsx).
    if (busy) return;
    setPending(body);
    setBusy(true);
    setError(null);
    try {
      await onPatch(body);
    } catch (err) {
      setError(failureText(err));
    } finally {
      setPending({});
      setBusy(false);
    }
  }

  return (
    <article
      data-tool-admin
      data-tool-name={tool.name}
      data-enabled={String(enabled)}
      className={`min-w-0 rounded-lg border p-3 text-sm ${tool.changed ? 'border-amber-400 dark:border-amber-600' : 'border-zinc-200 dark:border-zinc-800'}`}
    >
      <header className="flex flex-wrap items-center gap-2">
        <h3 className="break-all font-mono font-semibold">{tool.name}</h3>
        {tool.title && <span className="break-words text-zinc-500">{tool.title}</span>}
        {tool.changed && (
          <span
            data-changed
            className="rounded-full bg-amber-400 px-2 py-0.5 text-xs font-bold uppercase text-amber-950"
          >
            {t('changed')}
          </span>
        )}
        {annotations.map(([key, value]) => (
          <span
            key={key}
            data-annotation={key}
            className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
          >
            {annotationLabel(key, value)}
          </span>
        ))}
      </header>

      <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            aria-label={t('enabledFor', { name: tool.name })}
            checked={enabled}
            aria-disabled={busy || undefined}
            onChange={(e) => void patch({ enabled: e.target.checked })}
          />
          {t('enabled')}
        </label>
        <label className="flex items-center gap-2">
          <span>{t('approval')}</span>
          <select
            aria-label={t('approvalFor', { name: tool.name })}
            value={approval}
            aria-disabled={busy || undefined}
            onChange={(e) => void patch({ approval: e.target.value === 'auto' ? 'auto' : 'ask' })}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 aria-disabled:opacity-50 dark:border-zinc-700 dark:bg-zinc-900"
          >
            <option value="auto">{t('auto')}</option>
            <option value="ask">{t('ask')}</option>
          </select>
        </label>
      </div>
      {error && (
        <p role="alert" className="mt-2 break-words text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      )}

      {tool.changed && (
        <div className="mt-3 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-2 dark:border-amber-800 dark:bg-amber-950">
          <p className="font-medium text-amber-900 dark:text-amber-200">{t('changedNote')}</p>
          {(tool.changedUsers ?? 0) > 0 && (
            <p data-changed-users className="text-amber-900 dark:text-amber-200">
              {t('changedForUsers', { count: tool.changedUsers ?? 0 })}
            </p>
          )}
          {userChanges.map((change) => (
            <div
              key={change.hash}
              data-user-change={change.hash}
              data-users={change.users}
              className="space-y-1 rounded border border-amber-200 bg-white p-2 dark:border-amber-900 dark:bg-zinc-900"
            >
              <p className="text-xs font-medium text-amber-900 dark:text-amber-200">
                {t('userChange', { count: change.users })}
              </p>
              <DefinitionDiff
                previous={change.previous ?? { description: '', inputSchema: {} }}
                current={change}
              />
            </div>
          ))}
          {userChanges.length === 0 && tool.previous && (
            <DefinitionDiff previous={tool.previous} current={tool} />
          )}
          <BusyButton
            type="button"
            busy={busy}
            onClick={() =>
              void patch(
                userChanges.length > 0
                  ? { reviewed: true, definitions: userChanges.map((change) => change.hash) }
                  : { reviewed: true },
              )
            }
            className={BUTTON}
          >
            {t('markReviewed')}
          </BusyButton>
        </div>
      )}

      {!listed && (
        <p data-not-listed className="mt-3 text-xs text-zinc-500">
          {t('notListed')}
        </p>
      )}
      {listed && (
        <>
          <p className="mt-3 text-xs font-medium text-zinc-500">{t('description')}</p>
          <p data-tool-description className="mt-1 whitespace-pre-wrap break-words">
            {tool.description || <span className="italic text-zinc-500">{t('noDescription')}</span>}
          </p>
          <details className="mt-3" open>
            <summary className="cursor-pointer text-xs font-medium text-zinc-500">{t('inputSchema')}</summary>
            <pre
              data-tool-schema
              className="mt-1 max-h-96 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-50 p-2 text-xs dark:bg-zinc-950"
            >
              {JSON.stringify(tool.inputSchema, null, 2)}
            </pre>
          </details>
        </>
      )}
    </article>
  );
}
