'use client';

import 'katex/dist/katex.min.css';
import ReactMarkdown from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import type { PluggableList } from 'unified';
import { components, keepUrl, remarkPlugins } from './markdown-config';

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
const rehypePlugins = [[rehypeKatex, katexOptions]] satisfies PluggableList;

/**
 * Markdown with math: KaTeX (JavaScript and CSS) is its own chunk, loaded only for a message that has a
 * formula (markdown-view.tsx loads it with next/dynamic, so a server-rendered page links the CSS).
 */
export default function MathMarkdown({ source }: { source: string }) {
  return (
    <ReactMarkdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={rehypePlugins}
      components={components}
      urlTransform={keepUrl}
    >
      {source}
    </ReactMarkdown>
  );
}
