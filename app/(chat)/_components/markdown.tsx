'use client';

import { Component, createContext, lazy, memo, type ReactNode, Suspense, useSyncExternalStore } from 'react';
import { nestsTooDeepForMarkdown } from './markdown-nesting';

/**
 * The Markdown renderer (react-markdown, GFM) is its own chunk, loaded after the page's first
 * JavaScript: a server-rendered message keeps its server HTML until the chunk is there (React hydrates it
 * then), and a message mounted before that shows its text as written for that moment. KaTeX (with its CSS),
 * the highlighter's grammars and Mermaid are further chunks, loaded when a message needs them.
 */
const MarkdownView = lazy(() => import('./markdown-view'));

/** Loads the renderer ahead of need (e.g. once the chat page is interactive). */
export const preloadMarkdown = () => void import('./markdown-view');

/** The answers of the page whose Markdown the browser draws, not the server (markdown-budget.ts). */
export const MarkdownAfterHydration = createContext<ReadonlySet<string>>(new Set());

const noSubscription = () => () => {};
/** False in the server's render and while the browser hydrates it; true from then on. */
const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

const PlainText = ({ text }: { text: string }) => (
  <div className="prose-chat whitespace-pre-wrap break-words">{text}</div>
);

/**
 * Text the renderer fails on shows as written, in its own message only: the Markdown-to-HTML steps
 * recurse per level, so a few KB of model output nested thousands deep (`>>>>…`) overflow the stack, and
 * without this one message took the whole page down (chat and share page), on every reload.
 */
class RenderFailure extends Component<{ text: string; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <PlainText text={this.props.text} /> : this.props.children;
  }
}

/**
 * Untrusted text (model output, tool results) as Markdown: raw HTML is never rendered, links are
 * http(s)/mailto only, remote images are click-to-load (see markdown-view.tsx). `streaming`: the text is still
 * coming in (unfinished markers and fences are completed for display). Text nested too deep to parse in
 * reasonable time (markdown-nesting.ts) is shown as written, on the server too; `afterHydration` leaves
 * the Markdown to the browser (markdown-budget.ts).
 */
export const Markdown = memo(function Markdown({
  text,
  streaming,
  afterHydration,
}: {
  text: string;
  streaming?: boolean;
  /** Drawn as written by the server and while the browser hydrates, as Markdown from then on. */
  afterHydration?: boolean;
}) {
  const hydrated = useHydrated();
  if (nestsTooDeepForMarkdown(text) || (afterHydration && !hydrated)) return <PlainText text={text} />;
  return (
    <RenderFailure text={text}>
      <Suspense fallback={<PlainText text={text} />}>
        <MarkdownView text={text} streaming={streaming} />
      </Suspense>
    </RenderFailure>
  );
});
