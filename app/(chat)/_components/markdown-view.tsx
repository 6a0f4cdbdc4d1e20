'use client';

import { memo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { safeLinkUrl } from '@/lib/safe-url';
import { rehypeHighlightCode } from './highlight-code';
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
};

/** Keep every URL as written; the components above decide what may be followed or loaded. */
const keepUrl = (url: string) => url;

/**
 * Untrusted text (model output, tool results) as Markdown: raw HTML is never rendered
 * (react-markdown escapes it without rehype-raw), links are http(s)/mailto only, remote images are click-to-load.
 */
const MarkdownView = memo(function MarkdownView({ text }: { text: string }) {
  return (
    <div className="prose-chat">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeHighlightCode]}
        components={components}
        urlTransform={keepUrl}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});

export default MarkdownView;
