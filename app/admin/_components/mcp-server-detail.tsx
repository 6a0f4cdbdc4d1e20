'use client';

import { ArrowLeft } from 'lucide-react';
import Link from 'next/link';
import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { BusyButton } from '@/app/_components/busy-button';
import { useFailureText } from '@/app/_components/failure-text';
import { AdminApiError, adminFetch } from '@/app/admin/_components/admin-fetch';
import type { ProcessCount } from '@/lib/mcp/merge-status';
import type { McpServerConfig, ServerStatusInfo } from '@/lib/schemas/mcp';
import { type Prompt, type Resource, ServerCatalog } from './server-catalog';
import { ServerLogs } from './server-logs';
import { ToolAdminCard, type ToolPatch, type ToolView } from './tool-admin-card';
import { type TestResult, TestResultPanel } from './mcp-test-result';
import { ProcessCountNote } from './process-count';
import { BADGE, BUTTON, GREY } from './status-style';
import { type UserConnection, UserConnections } from './user-connections';

type Detail = McpServerConfig & {
  id: string;
  status: Omit<ServerStatusInfo, 'name'> & { processes?: ProcessCount };
  tools: ToolView[];
  resources: Resource[];
  prompts: Prompt[];
  connections: UserConnection[];
};

const POLL_MS = 5000;
const BACK = 'text-sm text-blue-700 hover:underline dark:text-blue-400';

/** /admin/mcp/[id]: one server's status and controls, every tool in full for review, resources, prompts and logs. */
export function McpServerDetail({ id }: { id: string }) {
  const t = useTranslations('admin.mcpDetail');
  const ts = useTranslations('admin.status');
  const failureText = useFailureText();
  const format = useFormatter();
  const when = (iso: string) => format.dateTime(new Date(iso), { dateStyle: 'medium', timeStyle: 'medium' });
  const base = `/api/mcp/servers/${encodeURIComponent(id)}`;
  const [detail, setDetail] = useState<Detail | null>(null);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<TestResult | { failed: string } | null>(null);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    try {
      const data = await adminFetch<Detail>(base);
      if (mine !== seq.current) return;
      setDetail(data);
      setMissing(false);
      setError(null);
    } catch (err) {
      if (mine !== seq.current) return;
      if (err instanceof AdminApiError && err.status === 404) setMissing(true);
      else setError(failureText(err));
    }
  }, [base, failureText]);

  useEffect(() => {
    const tick = () => {
      if (document.visibilityState === 'visible') void load();
    };
    void load();
    const timer = setInterval(tick, POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  // Toggle and Test are BusyButtons: neither is called again while it is busy.
  async function toggle(enabled: boolean) {
    setBusy(true);
    setError(null);
    try {
      await adminFetch(base, { method: 'PATCH', json: { enabled } });
      await load();
    } catch (err) {
      setError(failureText(err));
    } finally {
      setBusy(false);
    }
  }

  async function runTest() {
    setTesting(true);
    setTest(null);
    try {
      setTest(await adminFetch<TestResult>(`${base}/test`, { method: 'POST' }));
    } catch (err) {
      setTest({ failed: failureText(err) });
    } finally {
      setTesting(false);
    }
  }

  async function patchTool(name: string, patch: ToolPatch) {
    const updated = await adminFetch<Partial<ToolView>>(`${base}/tools/${encodeURIComponent(name)}`, {
      method: 'PATCH',
      json: patch,
    });
    seq.current++; // a poll that started before the change must not bring the old state back
    setDetail((d) => d && { ...d, tools: d.tools.map((t) => (t.name === name ? { ...t, ...updated } : t)) });
    void load();
  }

  if (missing) {
    return (
      <div className="mx-auto max-w-5xl p-4">
        <p role="alert" className="text-lg font-semibold">
          {t('notFound')}
        </p>
        <p className="mt-1 text-sm text-zinc-500">{t('maybeDeleted')}</p>
        <Link href="/admin/mcp" className={BACK}>
          <ArrowLeft aria-hidden className="mr-1 inline size-4 align-[-0.125em]" />
          {t('back')}
        </Link>
      </div>
    );
  }

  const status = detail?.status;
  return (
    <div className="mx-auto max-w-5xl space-y-6 p-4">
      <div className="space-y-2">
        <Link href="/admin/mcp" className={BACK}>
          <ArrowLeft aria-hidden className="mr-1 inline size-4 align-[-0.125em]" />
          {t('back')}
        </Link>
        {error && (
          <p role="alert" className="break-words text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        {!detail || !status ? (
          !error && (
            <p role="status" className="text-sm text-zinc-500">
              {t('loading')}
            </p>
          )
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="break-all text-lg font-semibold">{detail.name}</h1>
              <span className="text-xs text-zinc-500">{detail.transport}</span>
              <span
                data-status={status.status}
                className={`rounded-full px-2 py-0.5 text-xs font-medium ${BADGE[status.status] ?? GREY}`}
              >
                {ts(status.status)}
              </span>
              <ProcessCountNote processes={status.processes} className="text-xs text-zinc-500" />
              <div className="flex flex-wrap gap-1.5 sm:ml-auto">
                <BusyButton
                  type="button"
                  onClick={() => void toggle(!detail.enabled)}
                  busy={busy}
                  className={BUTTON}
                >
                  {detail.enabled ? t('disable') : t('enable')}
                </BusyButton>
                <BusyButton type="button" onClick={() => void runTest()} busy={testing} className={BUTTON}>
                  {testing ? t('testing') : t('test')}
                </BusyButton>
              </div>
            </div>
            <p className="text-sm text-zinc-500">
              {t('connectedSince')}{' '}
              {status.connectedSince ? (
                <time dateTime={status.connectedSince}>{when(status.connectedSince)}</time>
              ) : (
                '—'
              )}
            </p>
            {status.lastError && (
              <p
                data-last-error
                className={`whitespace-pre-wrap break-words text-sm ${status.status === 'error' ? 'text-red-700 dark:text-red-400' : 'text-zinc-500'}`}
              >
                <span className="font-semibold">
                  {t('lastError', { kind: status.lastError.kind, at: when(status.lastError.at) })}
                </span>{' '}
                {status.lastError.message}
              </p>
            )}
            {testing && (
              <p role="status" className="text-sm text-zinc-500">
                {t('connecting')}
              </p>
            )}
            {test &&
              ('failed' in test ? (
                <p role="alert" className="break-words text-sm text-red-700 dark:text-red-400">
                  {test.failed}
                </p>
              ) : (
                <TestResultPanel result={test} summary />
              ))}
          </>
        )}
      </div>

      {detail && (
        <>
          <section aria-labelledby="server-tools" className="space-y-3">
            <h2 id="server-tools" className="text-base font-semibold">
              {t('tools', { count: detail.tools.length })}
            </h2>
            {detail.tools.length === 0 && (
              <p className="text-sm text-zinc-500">
                {status?.status === 'connected' ? t('noTools') : t('noToolsDisconnected')}
              </p>
            )}
            {detail.tools.map((tool) => (
              <ToolAdminCard key={tool.name} tool={tool} onPatch={(patch) => patchTool(tool.name, patch)} />
            ))}
          </section>
          <ServerCatalog resources={detail.resources} prompts={detail.prompts} />
          {detail.scope === 'user' && <UserConnections items={detail.connections} />}
        </>
      )}
      <ServerLogs id={id} />
    </div>
  );
}
