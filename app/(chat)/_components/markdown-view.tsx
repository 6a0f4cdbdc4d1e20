'use client';

import dynamic from 'next/dynamic';
import { Fragment, memo, useDeferredValue, useMemo } from 'react';
import ReactMarkdown from 'react-markdown';
import { markdownPieces } from './markdown-blocks';
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
 * One piece of a long text (markdown-blocks.ts): memoized, so while an answer streams in only its last
 * piece, the one that changed, is parsed again. `openFenceLine` is counted within the piece.
 */
const Piece = memo(function Piece({
  source,
  math,
  openFenceLine,
}: {
  source: string;
  math: boolean;
  openFenceLine: number | null;
}) {
  return (
    <OpenFenceLine.Provider value={openFenceLine}>
      {math ? <MathMarkdown source={source} /> : <PlainMarkdown source={source} />}
    </OpenFenceLine.Provider>
  );
});

/**
 * Untrusted text (model output, tool results) as Markdown: raw HTML is never rendered
 * (react-markdown escapes it without rehype-raw), links are http(s)/mailto only, remote images are click-to-load,
 * math is set by KaTeX, code blocks carry their language and a copy button, Mermaid diagrams are drawn in a
 * sandboxed iframe. Text still streaming in (`streaming`) is completed first (streaming-markdown.ts) so a half-written
 * marker or fence renders sanely. Long text is parsed in pieces (markdown-blocks.ts: the parser's time grows
 * faster than the text). KaTeX, the highlighter and Mermaid load only when a message needs them.
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
  const pieces = useMemo(() => markdownPieces(source), [source]);
  // normalizeMath writes every formula as $$…$$ (a stray $$ becomes \$\$).
  const hasMath = source.includes('$$');
  // When math first shows up in a streaming answer, the answer keeps its render without KaTeX until the
  // KaTeX chunk is there (a deferred render that suspends keeps the current UI) instead of falling back.
  // On the server and at hydration the deferred value is the value itself.
  const mathReady = useDeferredValue(hasMath);
  return (
    <div className="prose-chat">
      {pieces.map((piece, i) => (
        // A piece keeps its key while the text grows (pieces before the last never change). Between pieces
        // the line break the renderer puts between blocks: the same HTML as the whole text's.
        <Fragment key={piece.line}>
          {i > 0 && '\n'}
          <Piece
            source={piece.text}
            math={hasMath && mathReady}
            // A fence still open runs to the end, and no piece ends inside a fence: it is in the last one.
            openFenceLine={
              openFenceLine !== null && i === pieces.length - 1 ? openFenceLine - piece.line + 1 : null
            }
          />
        </Fragment>
      ))}
    </div>
  );
});

export default MarkdownView;
