'use client';

import { useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import { allowAttribute } from '@/lib/mcp-apps/sandbox-policy';
import { AppCallApproval } from './app-call-approval';
import { McpAppError } from './mcp-app-error';
import { type McpAppProps, useMcpApp } from './use-mcp-app';
import { useModalView } from './use-modal-view';

/**
 * A tool's MCP App under its result: the host's sandbox proxy in an iframe on an opaque origin, the app
 * inside it, and the extension's host bridge (AppBridge) between the app and this page. The app's tool
 * calls go through /api/mcp-apps/call (the model's gates; an approval card here when the tool asks),
 * its messages and context go to the chat, marked as the app's. It re-initialises from the stored tool
 * input and result after a reload; a failing or silent app shows an error, never a blank box. Full screen
 * (its button, or the app's request), it is a modal dialog over the page, in place (useModalView).
 */
export function McpApp({ server, tool, uri, toolCallId, input, output }: McpAppProps) {
  const t = useTranslations('mcpApps');
  const { frameRef, doc, status, error, height, fullscreen, setFullscreen, pending, retry } = useMcpApp({
    server,
    tool,
    uri,
    toolCallId,
    input,
    output,
  });
  const [view, setView] = useState<HTMLElement | null>(null);
  const slot = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const onClose = () => setFullscreen(false);
  const { wrapFocus } = useModalView({ view, open: fullscreen, onClose, button, frame: frameRef, slot });

  // Failing full screen, the focus that was in the view goes to its "Try again".
  if (status === 'error')
    return <McpAppError server={server} message={error ?? ''} onRetry={retry} takeFocus={fullscreen} />;

  return (
    <div ref={slot}>
      <section
        ref={setView}
        aria-label={t('label', { server, tool })}
        {...(fullscreen ? { role: 'dialog', 'aria-modal': true } : {})}
        className={
          fullscreen ? 'fixed inset-0 z-50 flex flex-col bg-white p-2 dark:bg-zinc-950' : 'space-y-2'
        }
      >
        {fullscreen && <FocusGuard onFocus={() => wrapFocus('start')} />}
        <div className="flex items-center gap-2 text-xs text-zinc-500">
          <span className="min-w-0 flex-1 truncate">
            {status === 'loading' ? t('loading', { server }) : t('byServer', { server })}
          </span>
          {doc && doc.deniedPermissions.length > 0 && (
            <span data-app-denied-permissions className="text-amber-700 dark:text-amber-300">
              {t('permissionsDenied', { list: doc.deniedPermissions.join(', ') })}
            </span>
          )}
          <button
            ref={button}
            type="button"
            onClick={() => setFullscreen((f) => !f)}
            className="rounded border border-zinc-300 px-2 py-0.5 hover:bg-zinc-100 dark:border-zinc-600 dark:hover:bg-zinc-800"
          >
            {fullscreen ? t('exitFullscreen') : t('fullscreen')}
          </button>
        </div>
        {pending.map((p) => (
          <AppCallApproval key={p.id} call={p} server={server} />
        ))}
        {doc && (
          <iframe
            ref={frameRef}
            data-mcp-app={server}
            data-app-state={status}
            title={t('label', { server, tool })}
            sandbox="allow-scripts allow-forms"
            allow={allowAttribute(doc.permissions)}
            referrerPolicy="no-referrer"
            style={fullscreen ? undefined : { height }}
            className={`block w-full bg-transparent ${fullscreen ? 'min-h-0 flex-1' : ''} ${
              doc.prefersBorder ? 'rounded border border-zinc-200 dark:border-zinc-700' : 'border-0'
            }`}
          />
        )}
        {fullscreen && <FocusGuard onFocus={() => wrapFocus('end')} />}
      </section>
    </div>
  );
}

/** An empty stop of the tab order at an edge of the full-screen view, which sends the focus round (useModalView). */
function FocusGuard({ onFocus }: { onFocus: () => void }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/noStaticElementInteractions: a focus guard, passed on as soon as it gets the focus
    <span data-focus-guard tabIndex={0} onFocus={onFocus} className="outline-none" />
  );
}
