'use client';

import Link from 'next/link';
import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '@/app/(chat)/_components/confirm-dialog';
import { useFailureText } from '@/app/_components/failure-text';
import { adminFetch } from '@/app/admin/_components/admin-fetch';
import { neighbourControl } from '@/app/_components/neighbour-focus';
import type { ProcessCount } from '@/lib/mcp/merge-status';
import type { McpServerConfig, ServerStatusInfo } from '@/lib/schemas/mcp';
import { McpExportLinks } from './mcp-export-links';
import { McpImportDialog } from './mcp-import-dialog';
import { McpServerForm } from './mcp-server-form';
import { RowActions } from './row-actions';
import { ProcessCountNote } from './process-count';
import { BADGE, BUTTON, GREY } from './status-style';
import { Cell, TableHead } from './table-cell';

type ServerView = McpServerConfig & {
  id: string;
  createdAt: string;
  updatedAt: string;
  status: Omit<ServerStatusInfo, 'name'> & { processes?: ProcessCount };
  stats: {
    calls24h: number;
    errors24h: number;
    errorRate: number;
    p50Ms: number | null;
    p95Ms: number | null;
  };
};

const POLL_MS = 3000;

/** Column keys (admin.mcpServers.columns.*); the empty one is the actions column. */
const COLUMNS = [
  'server',
  'status',
  'tools',
  'calls',
  'errorRate',
  'latency',
  'connected',
  'actions',
] as const;

const rowActions = (row: HTMLElement) => row.querySelector<HTMLElement>('button[aria-haspopup="menu"]');

/** The "Actions for <name>" button of a server's row (where focus goes back after its Edit or Delete dialog). */
function actionsButton(name: string): HTMLElement | null {
  for (const row of document.querySelectorAll<HTMLElement>('[data-server-row]')) {
    if (row.dataset.serverRow === name) return rowActions(row);
  }
  return null;
}

/** Once a server's delete is confirmed (its row is about to go): the next row's actions button, or the one above. */
function nextActionsButton(name: string): HTMLElement | null {
  const rows = document.querySelectorAll<HTMLElement>('[data-server-row]');
  return neighbourControl(rows, (row) => row.dataset.serverRow === name, rowActions);
}

type RowProps = {
  server: ServerView;
  busy: boolean;
  onToggle: () => void;
  onEdit: () => void;
  onDelete: () => void;
};

function ServerRow({ server: s, busy, onToggle, onEdit, onDelete }: RowProps) {
  const t = useTranslations('admin.mcpServers');
  const ts = useTranslations('admin.status');
  const format = useFormatter();
  // Re-rendered by the poll every few seconds, so "now" stays current.
  const timeAgo = (iso: string) => format.relativeTime(new Date(iso), Date.now());
  const { status, lastError, connectedSince, toolCount, retryAt } = s.status;
  return (
    <tr
      data-server-row={s.name}
      className="relative mb-3 block rounded-lg border border-zinc-200 p-3 pr-12 md:table-row md:rounded-none md:border-0 md:border-b dark:border-zinc-800"
    >
      <td className="block pb-1 md:table-cell md:px-2 md:py-2 md:align-top">
        <Link
          href={`/admin/mcp/${encodeURIComponent(s.id)}`}
          className="break-words font-medium text-blue-700 hover:underline dark:text-blue-400"
        >
          {s.name}
        </Link>
        <span className="ml-2 text-xs text-zinc-500 md:ml-0 md:block">{s.transport}</span>
      </td>
      <Cell label={t('columns.status')} className="md:w-2/5">
        <span
          data-status={status}
          className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${BADGE[status] ?? GREY}`}
        >
          {ts(status)}
        </span>
        <ProcessCountNote processes={s.status.processes} className="ml-2 text-xs text-zinc-500" />
        {retryAt && status === 'error' && (
          <span className="ml-2 text-xs text-zinc-500">{t('retry', { when: timeAgo(retryAt) })}</span>
        )}
        {lastError && (
          <p
            data-last-error
            className={`mt-1 whitespace-pre-wrap break-words text-xs ${status === 'error' ? 'text-red-700 dark:text-red-400' : 'text-zinc-500'}`}
          >
            <span className="font-semibold">{lastError.kind}</span>: {lastError.message}
          </p>
        )}
      </Cell>
      <Cell label={t('columns.tools')}>
        <span data-tool-count>{toolCount}</span>
      </Cell>
      <Cell label={t('columns.calls')}>{format.number(s.stats.calls24h)}</Cell>
      <Cell label={t('columns.errorRate')}>
        {s.stats.calls24h
          ? format.number(s.stats.errorRate, { style: 'percent', maximumFractionDigits: 1 })
          : '—'}
      </Cell>
      <Cell label={t('columns.latency')}>
        <span className="whitespace-nowrap">
          {t('latency', { p50: s.stats.p50Ms ?? '—', p95: s.stats.p95Ms ?? '—' })}
        </span>
      </Cell>
      <Cell label={t('columns.connected')}>
        {connectedSince ? (
          <time
            dateTime={connectedSince}
            title={format.dateTime(new Date(connectedSince), { dateStyle: 'medium', timeStyle: 'medium' })}
          >
            {timeAgo(connectedSince)}
          </time>
        ) : (
          '—'
        )}
      </Cell>
      <td className="absolute top-2 right-2 md:static md:table-cell md:px-2 md:py-2 md:text-right md:align-top">
        <RowActions
          name={s.name}
          actions={[
            { label: s.enabled ? t('disable') : t('enable'), onSelect: onToggle, disabled: busy },
            { label: t('edit'), onSelect: onEdit, opensDialog: true },
            { label: t('delete'), onSelect: onDelete, disabled: busy, danger: true, opensDialog: true },
          ]}
        />
      </td>
    </tr>
  );
}

/** /admin/mcp: the registered MCP servers with live status (polled), add/edit/delete, import and export. */
export function McpServersAdmin() {
  const t = useTranslations('admin.mcpServers');
  const failureText = useFailureText();
  const [items, setItems] = useState<ServerView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<ServerView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ServerView | null>(null);
  const [importing, setImporting] = useState(false);
  const seq = useRef(0);
  const inFlight = useRef(false);
  const addButton = useRef<HTMLButtonElement>(null);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    inFlight.current = true;
    try {
      const data = await adminFetch<{ items: ServerView[] }>('/api/mcp/servers', { cache: 'no-store' });
      if (mine === seq.current) {
        setItems(data.items);
        setError(null);
      }
    } catch (err) {
      if (mine === seq.current) setError(failureText(err));
    } finally {
      if (mine === seq.current) inFlight.current = false;
    }
  }, [failureText]);

  useEffect(() => {
    const tick = () => {
      if (document.visibilityState === 'visible' && !inFlight.current) void load();
    };
    void load();
    const timer = setInterval(tick, POLL_MS);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [load]);

  async function act(server: ServerView, init: Parameters<typeof adminFetch>[1]) {
    setBusyIds((ids) => new Set(ids).add(server.id));
    setActionError(null);
    try {
      await adminFetch(`/api/mcp/servers/${encodeURIComponent(server.id)}`, init);
      await load();
    } catch (err) {
      setActionError(`${server.name}: ${failureText(err)}`);
    } finally {
      setBusyIds((ids) => new Set([...ids].filter((id) => id !== server.id)));
    }
  }

  return (
    <div className="mx-auto max-w-7xl p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-lg font-semibold">{t('title')}</h1>
        <button
          ref={addButton}
          type="button"
          onClick={() => setEditing('new')}
          className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
        >
          {t('add')}
        </button>
        <button type="button" onClick={() => setImporting(true)} className={BUTTON}>
          {t('import')}
        </button>
        <McpExportLinks />
      </div>
      {[actionError, error].map(
        (message) =>
          message && (
            <p key={message} role="alert" className="mt-3 break-words text-sm text-red-700 dark:text-red-400">
              {message}
            </p>
          ),
      )}
      {items === null ? (
        !error && (
          <p role="status" className="mt-6 text-sm text-zinc-500">
            {t('loading')}
          </p>
        )
      ) : items.length === 0 ? (
        <p className="mt-6 text-sm text-zinc-500">{t('empty')}</p>
      ) : (
        <table className="mt-4 block w-full text-sm md:table">
          <TableHead columns={COLUMNS} label={(c) => t(`columns.${c as (typeof COLUMNS)[number]}`)} />
          <tbody className="block md:table-row-group">
            {items.map((s) => (
              <ServerRow
                key={s.id}
                server={s}
                busy={busyIds.has(s.id)}
                onToggle={() => void act(s, { method: 'PATCH', json: { enabled: !s.enabled } })}
                onEdit={() => setEditing(s)}
                onDelete={() => setDeleting(s)}
              />
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <McpServerForm
          server={editing === 'new' ? null : editing}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
          onClose={() => {
            // It may have been changed meanwhile (a save here said so): open it again from fresh values.
            setEditing(null);
            void load();
          }}
          returnFocus={editing === 'new' ? undefined : () => actionsButton(editing.name)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('deleteTitle')}
          body={t('deleteBody', { name: deleting.name })}
          confirmLabel={t('delete')}
          onCancel={() => setDeleting(null)}
          returnFocus={() => actionsButton(deleting.name)}
          afterConfirm={() => nextActionsButton(deleting.name) ?? addButton.current}
          onConfirm={() => {
            setDeleting(null);
            void act(deleting, { method: 'DELETE' });
          }}
        />
      )}
      {importing && <McpImportDialog onApplied={() => void load()} onClose={() => setImporting(false)} />}
    </div>
  );
}
