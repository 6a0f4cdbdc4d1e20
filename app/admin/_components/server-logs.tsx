'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { ScrollRegion } from '@/app/_components/scroll-region';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useFailureText } from '@/app/_components/failure-text';
import { adminFetch } from '@/app/admin/_components/admin-fetch';
import { type LogMessageView, ServerLogMessages } from './server-log-messages';

type CallView = {
  id: string;
  at: string;
  tool: string;
  durationMs: number;
  outcome: 'ok' | 'error' | 'denied' | 'cancelled';
  errorKind: string | null;
  error: string | null;
};
/** A failure a user was shown only by its reference; the detail is here. */
type FailureView = { ref: string; at: string; kind: string; detail: string };
type Logs = {
  stderr: string[];
  messages: LogMessageView[];
  logLevel: string | null;
  calls: CallView[];
  failures: FailureView[];
};

const POLL_MS = 5000;
const OUTCOME: Record<CallView['outcome'], string> = {
  ok: 'bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-200',
  error: 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200',
  denied: 'bg-amber-100 text-amber-800 dark:bg-amber-900 dark:text-amber-200',
  cancelled: 'bg-zinc-200 text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200',
};

/** A server's stderr tail, its log messages, the failures users saw by reference, and its last 50 tool calls, polled every 5 s; all of it plain text. */
export function ServerLogs({ id }: { id: string }) {
  const t = useTranslations('admin.logs');
  const failureText = useFailureText();
  const format = useFormatter();
  const when = (iso: string) => format.dateTime(new Date(iso), { dateStyle: 'medium', timeStyle: 'medium' });
  const [logs, setLogs] = useState<Logs | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stderrRef = useRef<HTMLPreElement>(null);
  const inFlight = useRef(false);

  const load = useCallback(async () => {
    inFlight.current = true;
    try {
      setLogs(await adminFetch<Logs>(`/api/mcp/servers/${encodeURIComponent(id)}/logs`));
      setError(null);
    } catch (err) {
      setError(failureText(err));
    } finally {
      inFlight.current = false;
    }
  }, [id, failureText]);

  useEffect(() => {
    const tick = () => {
      if (document.visibilityState === 'visible' && !inFlight.current) void load();
    };
    void load();
    const timer = setInterval(tick, POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  const stderrText = logs?.stderr.join('\n') ?? '';
  // Keep the tail in view as new lines arrive.
  useEffect(() => {
    const pre = stderrRef.current;
    if (pre && stderrText) pre.scrollTop = pre.scrollHeight;
  }, [stderrText]);

  return (
    <section aria-labelledby="server-logs" className="space-y-3">
      <h2 id="server-logs" className="text-base font-semibold">
        {t('title')}
      </h2>
      {error && (
        <p role="alert" className="break-words text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {logs === null ? (
        !error && (
          <p role="status" className="text-sm text-zinc-500">
            {t('loading')}
          </p>
        )
      ) : (
        <>
          <div>
            <h3 className="text-sm font-medium text-zinc-500">{t('stderr')}</h3>
            <pre
              ref={stderrRef}
              data-stderr
              className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-md border border-zinc-200 bg-zinc-50 p-2 font-mono text-xs dark:border-zinc-800 dark:bg-zinc-950"
            >
              {stderrText || <span className="italic text-zinc-500">{t('noStderr')}</span>}
            </pre>
          </div>
          <ServerLogMessages
            id={id}
            messages={logs.messages}
            logLevel={logs.logLevel}
            onSaved={() => void load()}
          />
          {logs.failures.length > 0 && (
            <div>
              <h3 className="text-sm font-medium text-zinc-500">{t('failures')}</h3>
              <ul data-failures className="mt-1 space-y-1 text-xs">
                {[...logs.failures].reverse().map((f) => (
                  <li key={f.ref} data-failure={f.ref} className="whitespace-pre-wrap break-words">
                    <span className="font-mono font-semibold">{f.ref}</span>{' '}
                    <time dateTime={f.at}>{when(f.at)}</time> <span className="font-semibold">{f.kind}:</span>{' '}
                    {f.detail}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <div>
            <h3 className="text-sm font-medium text-zinc-500">{t('calls')}</h3>
            {logs.calls.length === 0 ? (
              <p className="mt-1 text-sm text-zinc-500">{t('noCalls')}</p>
            ) : (
              <ScrollRegion label={t('calls')} className="mt-1">
                <table data-calls className="w-full min-w-[32rem] text-left text-sm">
                  <thead className="border-b border-zinc-200 text-xs text-zinc-500 dark:border-zinc-800">
                    <tr>
                      {[t('time'), t('tool'), t('duration'), t('outcome'), t('error')].map((h) => (
                        <th key={h} scope="col" className="px-2 py-1.5 font-medium">
                          {h}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {logs.calls.map((call) => (
                      <tr
                        key={call.id}
                        data-call
                        data-tool-name={call.tool}
                        data-outcome={call.outcome}
                        className="border-b border-zinc-100 align-top dark:border-zinc-900"
                      >
                        <td className="whitespace-nowrap px-2 py-1.5 text-xs">
                          <time dateTime={call.at}>{when(call.at)}</time>
                        </td>
                        <td className="break-all px-2 py-1.5 font-mono text-xs">{call.tool}</td>
                        <td className="whitespace-nowrap px-2 py-1.5 tabular-nums">
                          {t('ms', { ms: call.durationMs })}
                        </td>
                        <td className="px-2 py-1.5">
                          <span
                            className={`rounded px-1.5 py-0.5 text-xs font-medium ${OUTCOME[call.outcome] ?? OUTCOME.cancelled}`}
                          >
                            {call.outcome}
                          </span>
                        </td>
                        <td className="min-w-48 whitespace-pre-wrap break-words px-2 py-1.5 text-xs text-red-700 dark:text-red-400">
                          {call.errorKind && <span className="font-semibold">{call.errorKind}: </span>}
                          {call.error}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            )}
          </div>
        </>
      )}
    </section>
  );
}
