'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';

/** Why an MCP App is not shown, with a way to try again (never a blank box). */
export function McpAppError({
  server,
  message,
  onRetry,
  takeFocus = false,
}: {
  server: string;
  message: string;
  onRetry: () => void;
  /** It replaces what had the focus (an app failing full screen): the focus goes to "Try again". */
  takeFocus?: boolean;
}) {
  const t = useTranslations('mcpApps');
  const retryButton = useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as it replaces the app
  useEffect(() => {
    if (takeFocus) retryButton.current?.focus();
  }, []);
  return (
    <div
      data-mcp-app-error={server}
      role="alert"
      className="flex flex-wrap items-center gap-2 rounded border border-red-300 bg-red-50 px-3 py-2 text-xs text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <span className="min-w-0 flex-1 break-words">{message}</span>
      <button
        ref={retryButton}
        type="button"
        onClick={onRetry}
        className="rounded border border-red-400 px-2 py-0.5 font-medium hover:bg-red-100 dark:hover:bg-red-900"
      >
        {t('retry')}
      </button>
    </div>
  );
}
