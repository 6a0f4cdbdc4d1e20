'use client';

import { useTranslations } from 'next-intl';
import { Component, type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';
import { McpAppError } from './mcp-app-error';
import type { McpAppProps } from './use-mcp-app';

/**
 * An MCP App's host (the extension's AppBridge, the MCP SDK's schemas and all of zod with them) is its own
 * chunk, loaded when a tool result first has an app, not with every chat page (with lib/zod.ts, the chat
 * page's first load is 75 kB gzipped smaller for it).
 */
const load = () => import('./mcp-app').then((m) => ({ default: m.McpApp }));

type BoundaryProps = { fallback: (error: unknown) => ReactNode; children: ReactNode };

/** Catches the chunk failing to load (a dropped network, a deploy that removed it) or the app's host failing. */
class AppBoundary extends Component<BoundaryProps, { failed: boolean; error: unknown }> {
  state = { failed: false, error: undefined as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { failed: true, error };
  }
  render() {
    return this.state.failed ? this.props.fallback(this.state.error) : this.props.children;
  }
}

/** {@link McpApp}, loaded on first use; until then the app's loading line, and if it cannot load, why, with a retry. */
export function LazyMcpApp(props: McpAppProps) {
  const t = useTranslations('mcpApps');
  // A failed import stays failed in its lazy component: a retry makes a new one.
  const [App, setApp] = useState<ComponentType<McpAppProps>>(() => lazy(load));
  const [attempt, setAttempt] = useState(0);
  const retry = () => {
    setApp(() => lazy(load));
    setAttempt((n) => n + 1);
  };
  return (
    <AppBoundary
      key={attempt}
      fallback={(error) => (
        <McpAppError
          server={props.server}
          message={t('loadFailed', { reason: error instanceof Error ? error.message : String(error) })}
          onRetry={retry}
        />
      )}
    >
      <Suspense
        fallback={
          <p role="status" className="text-xs text-zinc-500">
            {t('loading', { server: props.server })}
          </p>
        }
      >
        <App {...props} />
      </Suspense>
    </AppBoundary>
  );
}
