'use client';

import { memo, type ReactNode, use } from 'react';
import { grammarName, type HastNode, highlightCode, loadGrammar } from './highlight-code';

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
 * A fenced block's code, highlighted when its language is one of highlight.js's common ones. This module
 * (lowlight's core) is its own chunk, loaded with the first block that has a language; each grammar is a
 * further chunk, loaded the first time its language shows. Suspends until then (the caller's fallback is
 * the plain code); on the server it waits, so the server HTML is highlighted and hydrates as it is.
 */
function HighlightedCode({ language, code }: { language: string; code: string }) {
  const name = grammarName(language);
  if (name) use(loadGrammar(name));
  const tokens = name ? highlightCode(name, code) : null;
  return <code className={`hljs language-${language}`}>{tokens ? toReact(tokens) : code}</code>;
}

// A streaming answer re-renders every block on each token: a finished block (same language and code) is
// not highlighted again.
export default memo(HighlightedCode);
