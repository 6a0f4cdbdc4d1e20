'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useContext, useEffect, useState } from 'react';
import type { ToolPart, ToolProgress } from '@/lib/schemas/chat';
import { toolMetadataOf } from '@/lib/schemas/tool-metadata';
import { AppHostContext } from './mcp-app-host';
import { LazyMcpApp } from './mcp-app-lazy';
import { ToolOutput } from './tool-output';
import { type CardState, cardState } from './tool-result';
import { type RequestPart, TurnRequest } from './turn-request';

type Props = {
  part: ToolPart;
  interrupted: boolean;
  /** From an imported file: shown, never run here. */
  imported?: boolean;
  progress?: ToolProgress;
  /** The server's elicitation and sampling requests during this call, answerable while `active`. */
  requests?: RequestPart[];
  active?: boolean;
  onApproval?: (approvalId: string, approved: boolean, always: boolean) => void;
};

export function toolRef(part: ToolPart): { server: string; tool: string } {
  const meta = toolMetadataOf(part);
  return { server: meta.server ?? '?', tool: meta.tool ?? part.toolName };
}

const BADGE: Record<CardState, string> = {
  'streaming-input': 'bg-zinc-200 text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200',
  'awaiting-approval': 'bg-amber-100 text-amber-800 dark:bg-amber-900 dark:text-amber-200',
  running: 'bg-blue-100 text-blue-800 dark:bg-blue-900 dark:text-blue-200',
  done: 'bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-200',
  error: 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200',
  denied: 'bg-zinc-200 text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200',
  cancelled: 'bg-zinc-200 text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200',
};

function Elapsed() {
  const t = useTranslations('toolCall');
  const format = useFormatter();
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(started);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="tabular-nums">
      {t('elapsed', {
        seconds: format.number((now - started) / 1000, {
          minimumFractionDigits: 1,
          maximumFractionDigits: 1,
        }),
      })}
    </span>
  );
}

/** One MCP tool call inside an answer: server and tool, arguments, live state, result or error, approval. */
export function ToolCallCard({ part, interrupted, imported, progress, requests, active, onApproval }: Props) {
  const t = useTranslations('toolCall');
  const { server, tool } = toolRef(part);
  const appUri = toolMetadataOf(part).app;
  const appHost = useContext(AppHostContext);
  const state = cardState(part, interrupted);
  const [always, setAlways] = useState(false);
  const args = part.input === undefined ? '' : JSON.stringify(part.input, null, 2);
  return (
    <div
      data-tool-call
      data-tool-name={tool}
      data-server={server}
      data-state={state}
      data-imported={imported || undefined}
      className="my-2 rounded-lg border border-zinc-200 text-sm dark:border-zinc-700"
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-700">
        <span className="font-mono text-xs">
          <span className="text-zinc-500">{server}.</span>
          <span className="font-semibold">{tool}</span>
        </span>
        <span className={`rounded px-1.5 py-0.5 text-xs ${BADGE[state]}`}>{t(`states.${state}`)}</span>
        {imported && (
          <span
            data-tool-imported
            className="rounded bg-violet-100 px-1.5 py-0.5 text-xs text-violet-800 dark:bg-violet-950 dark:text-violet-200"
          >
            {t('imported')}
          </span>
        )}
        {state === 'running' && (
          <span className="text-xs text-zinc-500">
            <Elapsed />
          </span>
        )}
      </div>
      <div className="space-y-2 px-3 py-2">
        {args && (
          <details open={state === 'awaiting-approval' || state === 'streaming-input'}>
            <summary className="cursor-pointer text-xs text-zinc-500">{t('arguments')}</summary>
            <pre
              data-tool-args
              className="mt-1 whitespace-pre-wrap break-words rounded bg-zinc-50 p-2 text-xs dark:bg-zinc-950"
            >
              {args}
            </pre>
          </details>
        )}
        {state === 'running' && progress && (
          <div className="space-y-1">
            <progress
              className="h-1.5 w-full"
              aria-label={t('progress', { name: `${server}.${tool}` })}
              value={progress.progress}
              max={progress.total ?? undefined}
            />
            {progress.message && <p className="text-xs text-zinc-500">{progress.message}</p>}
          </div>
        )}
        {requests?.map((r, i) => (
          <TurnRequest key={r.id ?? i} part={r} active={Boolean(active)} />
        ))}
        {state === 'done' && <ToolOutput output={part.output} />}
        {state === 'done' && appUri && appHost && !imported && (
          <LazyMcpApp
            server={server}
            tool={tool}
            uri={appUri}
            toolCallId={part.toolCallId}
            input={part.input}
            output={part.output}
          />
        )}
        {state === 'error' && (
          <p
            data-tool-error
            className="whitespace-pre-wrap break-words text-xs text-red-700 dark:text-red-300"
          >
            {part.errorText}
          </p>
        )}
        {state === 'awaiting-approval' && part.approval && onApproval && (
          <div className="space-y-2 rounded bg-amber-50 p-2 dark:bg-amber-950">
            <p className="text-xs">
              {t.rich('wantsToRun', { tool, server, strong: (chunks) => <strong>{chunks}</strong> })}
            </p>
            <label className="flex items-center gap-2 text-xs">
              <input type="checkbox" checked={always} onChange={(e) => setAlways(e.target.checked)} />
              {t('alwaysAllow')}
            </label>
            <div className="flex gap-2">
              <button
                type="button"
                onClick={() => part.approval && onApproval(part.approval.id, true, always)}
                className="rounded bg-green-600 px-3 py-1 text-xs font-semibold text-white hover:bg-green-700"
              >
                {t('approve')}
              </button>
              <button
                type="button"
                onClick={() => part.approval && onApproval(part.approval.id, false, false)}
                className="rounded bg-zinc-600 px-3 py-1 text-xs font-semibold text-white hover:bg-zinc-700"
              >
                {t('deny')}
              </button>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
