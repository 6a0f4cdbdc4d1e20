'use client';

import {
  AppBridge,
  type McpUiHostCapabilities,
  type McpUiHostContext,
  PostMessageTransport,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { useFailureText } from '@/app/_components/failure-text';
import { useLocale, useTranslations } from 'next-intl';
import { useContext, useEffect, useRef, useState } from 'react';
import { permissionsObject } from '@/lib/mcp-apps/sandbox-policy';
import type { PendingCall } from './app-call-approval';
import { type AppDocument, errorText, forgetDocument, loadDocument } from './mcp-app-document';
import { AppHostContext } from './mcp-app-host';
import { isDark, styleVariables } from './mcp-app-styles';

/** The tool call an app is shown for. */
export type McpAppProps = {
  server: string;
  tool: string;
  uri: string;
  toolCallId: string;
  input: unknown;
  output: unknown;
};

const HOST_INFO = { name: 'MCP Chat', version: '1.0.0' };
/** An app that has not said it is ready after this long shows an error instead of a blank box. */
const INIT_TIMEOUT_MS = 15_000;
const MIN_HEIGHT = 48;
const MAX_INLINE_HEIGHT = 800;

const asObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const textOf = (content: Array<{ type: string; text?: string }> | undefined) =>
  (content ?? [])
    .flatMap((c) => (c.type === 'text' && typeof c.text === 'string' ? [c.text] : []))
    .join('\n')
    .trim();

/**
 * Whether the person is using this app now: they have just clicked or typed (the browser's transient
 * activation), and in it (the app's frame holds the focus; a click in the composer or on Send does not
 * count). An app may send a message in their name, open a link or take the full screen only then:
 * unprompted, an app in any tool card (old ones too, on every load) could start answers on its own, again
 * and again, or cover the page.
 */
const usingApp = (frame: HTMLIFrameElement | null) =>
  frame !== null && document.activeElement === frame && navigator.userActivation?.isActive === true;

const errorResult = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/**
 * An MCP App's life in its tool card: its document is read, the extension's host bridge (AppBridge)
 * connects to the sandbox proxy in `frameRef` once it is shown, and answers the app's requests (tool
 * calls, with `pending` approvals; messages; context; links; display mode; size).
 */
export function useMcpApp({ server, tool, uri, toolCallId, input, output }: McpAppProps) {
  const t = useTranslations('mcpApps');
  const failureText = useFailureText();
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
    if (attempt > 0) forgetDocument(server, uri);
    setStatus('loading');
    setDoc(null);
    loadDocument(server, uri).then(
      (d) => live && setDoc(d),
      (err: unknown) => {
        if (!live) return;
        setError(t('loadFailed', { reason: failureText(err) }));
        setStatus('error');
      },
    );
    return () => {
      live = false;
    };
  }, [server, uri, attempt, t, failureText]);

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
      const sent =
        Boolean(text) &&
        usingApp(frameRef.current) &&
        (hostRef.current?.sendFromApp({ server, tool, text }) ?? false);
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
      ok &&= usingApp(frameRef.current);
      if (ok) window.open(url, '_blank', 'noopener,noreferrer');
      return ok ? {} : { isError: true };
    };
    bridge.onrequestdisplaymode = async ({ mode }) => {
      const next = mode === 'fullscreen' && usingApp(frameRef.current) ? 'fullscreen' : 'inline';
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

  // An app that fails is shown inline (its error, and after "Try again" the app, not full screen again).
  useEffect(() => {
    if (status === 'error') setFullscreen(false);
  }, [status]);

  function retry() {
    setError('');
    setAttempt((n) => n + 1);
  }

  return { frameRef, doc, status, error, height, fullscreen, setFullscreen, pending, retry };
}
