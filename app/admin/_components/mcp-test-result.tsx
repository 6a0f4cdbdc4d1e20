'use client';

import { useTranslations } from 'next-intl';

export type TestResult = {
  ok: boolean;
  latencyMs: number;
  tools: Array<{ name: string }>;
  resources: unknown[];
  prompts: unknown[];
  error?: string;
  stderr: string[];
};

/**
 * What "Test connection" found: the tools, resources and prompts, or the failure and stderr. `summary`: one
 * line with the number of tools (a server's page, which lists them all under it).
 */
export function TestResultPanel({ result, summary = false }: { result: TestResult; summary?: boolean }) {
  const t = useTranslations('admin.testResult');
  return (
    <div
      data-test-result
      data-ok={String(result.ok)}
      role={result.ok ? 'status' : 'alert'}
      className="space-y-1 rounded-md border border-zinc-200 p-2 text-sm dark:border-zinc-700"
    >
      {result.ok && summary ? (
        <p className="font-medium text-green-700 dark:text-green-400">
          {t('summary', { count: result.tools.length, ms: result.latencyMs })}
        </p>
      ) : result.ok ? (
        <>
          <p className="font-medium text-green-700 dark:text-green-400">
            {t('ok', { ms: result.latencyMs })}
          </p>
          <p>{t('tools', { count: result.tools.length })}</p>
          <ul className="flex flex-wrap gap-1">
            {result.tools.map((tool) => (
              <li key={tool.name}>
                <code className="rounded bg-zinc-100 px-1 text-xs dark:bg-zinc-800">{tool.name}</code>
              </li>
            ))}
          </ul>
          <p>{t('counts', { resources: result.resources.length, prompts: result.prompts.length })}</p>
        </>
      ) : (
        <p className="whitespace-pre-wrap break-words font-medium text-red-700 dark:text-red-400">
          {t('failed', { ms: result.latencyMs })} <span data-test-error>{result.error}</span>
        </p>
      )}
      {result.stderr.length > 0 && (
        <>
          <p className="text-xs text-zinc-500">{t('stderr')}</p>
          <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-50 p-1 text-xs dark:bg-zinc-950">
            {result.stderr.join('\n')}
          </pre>
        </>
      )}
    </div>
  );
}
