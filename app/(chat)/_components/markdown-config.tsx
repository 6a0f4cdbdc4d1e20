'use client';

import dynamic from 'next/dynamic';
import { createContext, Suspense, useContext } from 'react';
import type { Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import type { PluggableList } from 'unified';
import { safeLinkUrl } from '@/lib/safe-url';
import { CodeBlock, codeLanguage, codeText } from './code-block';
import { MermaidBlock } from './mermaid-block';
import { RemoteImage } from './remote-image';

/**
 * The highlighter and its grammars: their own chunk, loaded when a message first shows a fenced block with
 * a language (server-rendered pages include it, so the server HTML is highlighted and hydrates as is).
 */
const HighlightedCode = dynamic(() => import('./highlighted-code'));

/** The line of the fenced block still streaming in (see streaming-markdown.ts), if any. */
export const OpenFenceLine = createContext<number | null>(null);

type PreProps = Parameters<Extract<NonNullable<Components['pre']>, (props: never) => unknown>>[0];

function Pre({ node, children }: PreProps) {
  const openLine = useContext(OpenFenceLine);
  const language = codeLanguage(node);
  const code = codeText(node);
  if (language === 'mermaid') {
    const streaming = openLine !== null && node?.position?.start.line === openLine;
    return <MermaidBlock code={code} complete={!streaming} />;
  }
  const plain = <pre>{children}</pre>;
  // Display math before KaTeX has loaded (remark-math's `pre > code.language-math`): its TeX as is.
  if (language === 'math') return plain;
  return (
    <CodeBlock language={language} code={code}>
      {language ? (
        <Suspense fallback={plain}>
          <pre>
            <HighlightedCode language={language} code={code} />
          </pre>
        </Suspense>
      ) : (
        plain
      )}
    </CodeBlock>
  );
}

export const components: Components = {
  a: ({ href, children }) => {
    const safe = safeLinkUrl(href);
    if (!safe) return <span>{children}</span>;
    return (
      <a href={safe} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    );
  },
  img: ({ src, alt }) => <RemoteImage src={typeof src === 'string' ? src : undefined} alt={alt} />,
  pre: Pre,
};

/** Only `$$` delimits math here: normalizeMath rewrites every accepted form (and leaves prices as text). */
export const remarkPlugins = [
  remarkGfm,
  [remarkMath, { singleDollarTextMath: false }],
] satisfies PluggableList;

/** Keep every URL as written; the components above decide what may be followed or loaded. */
export const keepUrl = (url: string) => url;
