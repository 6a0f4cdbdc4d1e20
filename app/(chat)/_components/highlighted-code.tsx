'use client';

import type { ReactNode } from 'react';
import { type HastNode, highlightCode } from './highlight-code';

/** lowlight's token tree (text and `<span class="hljs-…">`) as React elements. */
function toReact(nodes: HastNode[]): ReactNode[] {
  return nodes.map((node, i) => {
    if (node.type === 'text') return node.value ?? '';
    if (node.type !== 'element') return null;
    const className = node.properties?.className;
    return (
      <span key={i} className={Array.isArray(className) ? className.join(' ') : undefined}>
        {toReact(node.children ?? [])}
      </span>
    );
  });
}

/**
 * A fenced block's code, highlighted when its language is one highlight-code.ts knows. Its own chunk
 * (with the grammars), loaded when a message first shows a block with a language.
 */
export default function HighlightedCode({ language, code }: { language: string; code: string }) {
  const tokens = highlightCode(language, code);
  return <code className={`hljs language-${language}`}>{tokens ? toReact(tokens) : code}</code>;
}
