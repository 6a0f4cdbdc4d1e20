'use client';

import {
  AppBridge,
  type McpUiHostCapabilities,
  type McpUiHostContext,
  type McpUiStyles,
  PostMessageTransport,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { useLocale, useTranslations } from 'next-intl';
import { useContext, useEffect, useRef, useState } from 'react';
import {
  allowAttribute,
  type AppCsp,
  type AppPermission,
  permissionsObject,
} from '@/lib/mcp-apps/sandbox-policy';
import { AppHostContext } from './mcp-app-host';

/** GET /api/mcp-apps/resource. */
type AppDocument = {
  html: string;
  csp: AppCsp;
  permissions: AppPermission[];
  deniedPermissions: string[];
  prefersBorder: boolean;
};

type Props = {
  server: string;
  tool: string;
  uri: string;
  toolCallId: string;
  input: unknown;
  output: unknown;
};

type PendingCall = { id: string; tool: string; args: string; answer: (approved: boolean) => void };

const HOST_INFO = { name: 'MCP Chat', version: '1.0.0' };
/** An app that has not said it is ready after this long shows an error instead of a blank box. */
const INIT_TIMEOUT_MS = 15_000;
const MIN_HEIGHT = 48;
const MAX_INLINE_HEIGHT = 800;

/** App documents, read once per page per server and resource (the server caches them too). */
const documents = new Map<string, Promise<AppDocument>>();

async function errorText(res: Response): Promise<string> {
  const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
  return body.error?.message ?? `HTTP ${res.status}`;
}

function loadDocument(server: string, uri: string): Promise<AppDocument> {
  const key = `${server}\n${uri}`;
  let doc = documents.get(key);
  if (!doc) {
    doc = fetch(`/api/mcp-apps/resource?${new URLSearchParams({ server, uri })}`).then(async (res) => {
      if (!res.ok) throw new Error(await errorText(res));
      return (await res.json()) as AppDocument;
    });
    doc.catch(() => documents.delete(key));
    documents.set(key, doc);
  }
  return doc;
}

const isDark = () => document.documentElement.classList.contains('dark');

/** The host's look as MCP Apps style variables (the same zinc palette as the chat), for the current theme. */
function styleVariables(dark: boolean): McpUiStyles {
  const vars: Partial<McpUiStyles> = {
    '--color-background-primary': dark ? '#09090b' : '#ffffff',
    '--color-background-secondary': dark ? '#18181b' : '#f4f4f5',
    '--color-text-primary': dark ? '#f4f4f5' : '#18181b',
    '--color-text-secondary': dark ? '#a1a1aa' : '#71717a',
    '--color-border-primary': dark ? '#3f3f46' : '#e4e4e7',
    '--color-text-danger': dark ? '#fca5a5' : '#b91c1c',
    '--font-sans': 'ui-sans-serif, system-ui, sans-serif',
    '--font-mono': 'ui-monospace, SFMono-Regular, monospace',
    '--border-radius-md': '0.375rem',
  };
  return vars as McpUiStyles;
}

const asObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const textOf = (content: Array<{ type: string; text?: string }> | undefined) =>
  (content ?? [])
    .flatMap((c) => (c.type === 'text' && typeof c.text === 'string' ? [c.text] : []))
    .join('\n')
    .trim();

const errorResult = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/**
 * A tool's MCP App under its result: the host's sandbox proxy in an iframe on an opaque origin, the app
 * inside it, and the extension's host bridge (AppBridge) between the app and this page. The app's tool
 * calls go through /api/mcp-apps/call (the model's gates; an approval card here when the tool asks),
 * its messages and context go to the chat, marked as the app's. It re-initialises from the stored tool
 * input and result after a reload; a failing or silent app shows an error, never a blank box.
 */
export function McpApp({ server, tool, uri, toolCallId, input, output }: Props) {
  const t = useTranslations('mcpApps');
  const locale = useLocale();
  const host = useContext(AppHostContext);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const bridgeRef = useRef<AppBridge | null>(null);
  const [doc, setDoc] = useState<AppDocument | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState('');
  const [height, setHeight] = useState(160);
  const [fullscreen, setFullscreen] = useState(false);
  const [pending, setPending] = useState<PendingCall[]>([]);
  const [attempt, setAttempt] = useState(0);
  const hostRef = useRef(host);
  hostRef.current = host;
  const data = useRef({ input, output, locale });
  data.current = { input, output, locale };

  useEffect(() => {
    let live = true;
    // "Try again" reads the document afresh.
    if (attempt > 0) documents.delete(`${server}\n${uri}`);
    setStatus('loading');
    setDoc(null);
    loadDocument(server, uri).then(
      (d) => live && setDoc(d),
      (err: Error) => {
        if (!live) return;
        setError(t('loadFailed', { reason: err.message }));
        setStatus('error');
      },
    );
    return () => {
      live = false;
    };
  }, [server, uri, attempt, t]);

  useEffect(() => {
    const frame = frameRef.current;
    const win = frame?.contentWindow;
    if (!doc || !frame || !win) return;
    let initialized = false;
    const context = (): McpUiHostContext => ({
      theme: isDark() ? 'dark' : 'light',
      styles: { variables: styleVariables(isDark()) },
      locale: data.current.locale,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      platform: 'web',
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen'],
      containerDimensions: { maxHeight: MAX_INLINE_HEIGHT },
      userAgent: HOST_INFO.name,
    });
    const capabilities: McpUiHostCapabilities = {
      openLinks: {},
      serverTools: {},
      logging: {},
      updateModelContext: { text: {}, structuredContent: {} },
      message: { text: {} },
      sandbox: { permissions: permissionsObject(doc.permissions), csp: doc.csp },
    };
    const bridge = new AppBridge(null, HOST_INFO, capabilities, { hostContext: context() });
    bridgeRef.current = bridge;

    const post = async (body: object) => {
      const res = await fetch('/api/mcp-apps/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(await errorText(res));
      return (await res.json()) as
        | { status: 'done'; result: CallToolResult }
        | { status: 'approval-required'; approvalId: string }
        | { status: 'denied' };
    };

    bridge.oncalltool = async ({ name, arguments: args }) => {
      const conversationId = hostRef.current?.conversationId;
      if (!conversationId) return errorResult(t('noConversation'));
      const call = { conversationId, server, tool: name, arguments: args ?? {} };
      try {
        let answer = await post(call);
        if (answer.status === 'approval-required') {
          const id = answer.approvalId;
          const approved = await new Promise<boolean>((resolve) =>
            setPending((list) => [
              ...list,
              { id, tool: name, args: JSON.stringify(args ?? {}, null, 2), answer: resolve },
            ]),
          );
          setPending((list) => list.filter((p) => p.id !== id));
          answer = await post({ ...call, approval: { id, approved } });
        }
        if (answer.status === 'denied') return errorResult(t('callDenied'));
        if (answer.status === 'done') return answer.result;
        return errorResult(t('callDenied'));
      } catch (err) {
        return errorResult(err instanceof Error ? err.message : String(err));
      }
    };
    bridge.onmessage = async ({ content }) => {
      const text = textOf(content);
      const sent = Boolean(text) && (hostRef.current?.sendFromApp({ server, tool, text }) ?? false);
      return sent ? {} : { isError: true };
    };
    bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
      const text = [textOf(content), structuredContent ? JSON.stringify(structuredContent) : '']
        .filter(Boolean)
        .join('\n')
        .slice(0, 20_000);
      if (text) hostRef.current?.shareContext(toolCallId, { server, tool, text });
      return {};
    };
    bridge.onopenlink = async ({ url }) => {
      let ok = false;
      try {
        ok = ['http:', 'https:'].includes(new URL(url).protocol);
      } catch {}
      if (ok) window.open(url, '_blank', 'noopener,noreferrer');
      return ok ? {} : { isError: true };
    };
    bridge.onrequestdisplaymode = async ({ mode }) => {
      const next = mode === 'fullscreen' ? 'fullscreen' : 'inline';
      setFullscreen(next === 'fullscreen');
      return { mode: next };
    };
    bridge.addEventListener('sizechange', ({ height: h }) => {
      if (typeof h === 'number' && Number.isFinite(h))
        setHeight(Math.min(Math.max(Math.ceil(h), MIN_HEIGHT), MAX_INLINE_HEIGHT));
    });
    bridge.addEventListener('sandboxready', () => {
      void bridge.sendSandboxResourceReady({
        html: doc.html,
        csp: doc.csp,
        permissions: permissionsObject(doc.permissions),
      });
    });
    bridge.addEventListener('initialized', () => {
      initialized = true;
      setStatus('ready');
      const { input: args, output: result } = data.current;
      void bridge.sendToolInput({ arguments: asObject(args) });
      if (result && typeof result === 'object') void bridge.sendToolResult(result as CallToolResult);
    });
    const timer = setTimeout(() => {
      if (initialized) return;
      setError(t('timeout'));
      setStatus('error');
    }, INIT_TIMEOUT_MS);
    const sandbox = `/api/mcp-apps/sandbox?${new URLSearchParams({ csp: JSON.stringify(doc.csp) })}`;
    bridge
      .connect(new PostMessageTransport(win, win))
      .then(() => {
        frame.src = sandbox;
      })
      .catch((err: Error) => {
        setError(t('loadFailed', { reason: err.message }));
        setStatus('error');
      });
    // Theme changes reach the app as they happen.
    const observer = new MutationObserver(() => bridge.setHostContext(context()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => {
      clearTimeout(timer);
      observer.disconnect();
      bridgeRef.current = null;
      if (initialized) void bridge.teardownResource({}).catch(() => {});
      void bridge.close().catch(() => {});
    };
  }, [doc, server, tool, toolCallId, t]);

  useEffect(() => {
    if (!fullscreen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setFullscreen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [fullscreen]);

  if (status === 'error') {
    return (
      <div
        data-mcp-app-error={server}
        role="alert"
        className="flex flex-wrap items-center gap-2 rounded border border-red-300 bg-red-50 px-3 py-2 text-xs text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
      >
        <span className="min-w-0 flex-1 break-words">{error}</span>
        <button
          type="button"
          onClick={() => {
            setError('');
            setAttempt((n) => n + 1);
          }}
          className="rounded border border-red-400 px-2 py-0.5 font-medium hover:bg-red-100 dark:hover:bg-red-900"
        >
          {t('retry')}
        </button>
      </div>
    );
  }

  return (
    <section
      aria-label={t('label', { server, tool })}
      className={fullscreen ? 'fixed inset-0 z-50 flex flex-col bg-white p-2 dark:bg-zinc-950' : 'space-y-2'}
    >
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
          type="button"
          onClick={() => setFullscreen((f) => !f)}
          className="rounded border border-zinc-300 px-2 py-0.5 hover:bg-zinc-100 dark:border-zinc-600 dark:hover:bg-zinc-800"
        >
          {fullscreen ? t('exitFullscreen') : t('fullscreen')}
        </button>
      </div>
      {pending.map((p) => (
        <div
          key={p.id}
          data-app-approval={p.tool}
          className="space-y-2 rounded bg-amber-50 p-2 text-xs dark:bg-amber-950"
        >
          <p>{t('approvalText', { tool: p.tool, server })}</p>
          <pre className="whitespace-pre-wrap break-words rounded bg-white/60 p-2 dark:bg-black/30">
            {p.args}
          </pre>
          <div className="flex gap-2">
            <button
              type="button"
              onClick={() => p.answer(true)}
              className="rounded bg-green-600 px-3 py-1 font-semibold text-white hover:bg-green-700"
            >
              {t('approve')}
            </button>
            <button
              type="button"
              onClick={() => p.answer(false)}
              className="rounded bg-zinc-600 px-3 py-1 font-semibold text-white hover:bg-zinc-700"
            >
              {t('deny')}
            </button>
          </div>
        </div>
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
    </section>
  );
}
