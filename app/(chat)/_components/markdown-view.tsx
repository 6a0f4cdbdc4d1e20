'use client';

import dynamic from 'next/dynamic';
import { memo, useDeferredValue, useMemo } from 'react';
import ReactMarkdown from 'react-markdown';
import { components, keepUrl, OpenFenceLine, remarkPlugins } from './markdown-config';
import { normalizeMath } from './math-delimiters';
import { prepareStreamingMarkdown } from './streaming-markdown';

/** KaTeX (JavaScript and CSS), loaded for the first message with math. */
const MathMarkdown = dynamic(() => import('./markdown-math'));

function PlainMarkdown({ source }: { source: string }) {
  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} components={components} urlTransform={keepUrl}>
      {source}
    </ReactMarkdown>
  );
}

/**
 * Untrusted text (model output, tool results) as Markdown: raw HTML is never rendered
 * (react-markdown escapes it without rehype-raw), links are http(s)/mailto only, remote images are click-to-load,
 * math is set by KaTeX, code blocks carry their language and a copy button, Mermaid diagrams are drawn in a
 * sandboxed iframe. Text still streaming in (`streaming`) is completed first (streaming-markdown.ts) so a half-written
 * marker or fence renders sanely. KaTeX, the highlighter and Mermaid load only when a message needs them.
 */
const MarkdownView = memo(function MarkdownView({
  text,
  streaming = false,
}: {
  text: string;
  streaming?: boolean;
}) {
  const { text: source, openFenceLine } = useMemo(
    () => prepareStreamingMarkdown(normalizeMath(text), streaming),
    [text, streaming],
  );
  // normalizeMath writes every formula as $$…$$ (a stray $$ becomes \$\$).
  const hasMath = source.includes('$$');
  // When math first shows up in a streaming answer, the answer keeps its render without KaTeX until the
  // KaTeX chunk is there (a deferred render that suspends keeps the current UI) instead of falling back.
  // On the server and at hydration the deferred value is the value itself.
  const mathReady = useDeferredValue(hasMath);
  return (
    <div className="prose-chat">
      <OpenFenceLine.Provider value={openFenceLine}>
        {hasMath && mathReady ? <MathMarkdown source={source} /> : <PlainMarkdown source={source} />}
      </OpenFenceLine.Provider>
    </div>
  );
});

export default MarkdownView;
