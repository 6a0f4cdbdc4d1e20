'use client';

import { memo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import type { PluggableList } from 'unified';
import { safeLinkUrl } from '@/lib/safe-url';
import { CodeBlock } from './code-block';
import { rehypeHighlightCode } from './highlight-code';
import { normalizeMath } from './math-delimiters';
import { RemoteImage } from './remote-image';

const components: Components = {
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
  pre: ({ node, children }) => <CodeBlock node={node}>{children}</CodeBlock>,
};

/** Only `$$` delimits math here: normalizeMath rewrites every accepted form (and leaves prices as text). */
const remarkPlugins = [remarkGfm, [remarkMath, { singleDollarTextMath: false }]] satisfies PluggableList;

/**
 * KaTeX never throws (a formula it cannot read shows as its source), never follows \href or \url
 * (`trust: false`) and caps sizes and macro expansion so a hostile formula cannot blow up the page.
 */
const katexOptions = {
  throwOnError: false,
  trust: false,
  strict: 'ignore',
  maxSize: 20,
  maxExpand: 500,
} as const;
const rehypePlugins = [[rehypeKatex, katexOptions], rehypeHighlightCode] satisfies PluggableList;

/** Keep every URL as written; the components above decide what may be followed or loaded. */
const keepUrl = (url: string) => url;

/**
 * Untrusted text (model output, tool results) as Markdown: raw HTML is never rendered
 * (react-markdown escapes it without rehype-raw), links are http(s)/mailto only, remote images are click-to-load,
 * math is set by KaTeX, code blocks carry their language and a copy button.
 */
const MarkdownView = memo(function MarkdownView({ text }: { text: string }) {
  return (
    <div className="prose-chat">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={components}
        urlTransform={keepUrl}
      >
        {normalizeMath(text)}
      </ReactMarkdown>
    </div>
  );
});

export default MarkdownView;
