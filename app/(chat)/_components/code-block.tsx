'use client';

import { type ReactNode, useEffect, useRef, useState } from 'react';

type HastNode = {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
};

const textOf = (node: HastNode): string =>
  node.type === 'text' ? (node.value ?? '') : (node.children ?? []).map(textOf).join('');

/** The fenced block's language (`language-x` on its `<code>`), if it was given one. */
export function codeLanguage(pre: HastNode | undefined): string | undefined {
  const code = pre?.children?.find((child) => child.type === 'element' && child.tagName === 'code');
  const list = code?.properties?.className;
  if (!Array.isArray(list)) return undefined;
  for (const value of list.map(String)) {
    if (value.startsWith('language-')) return value.slice(9) || undefined;
    if (value.startsWith('lang-')) return value.slice(5) || undefined;
  }
  return undefined;
}

/** The code as written (highlighting only adds spans around it), without the fence's final newline. */
export const codeText = (pre: HastNode | undefined) => (pre ? textOf(pre).replace(/\n$/, '') : '');

/**
 * A fenced code block: its language as a label and a "Copy code" button that copies the code as written
 * and says "Copied" for a moment.
 */
export function CodeBlock({ node, children }: { node?: HastNode; children?: ReactNode }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const language = codeLanguage(node);
  const copy = () => {
    void navigator.clipboard
      ?.writeText(codeText(node))
      .then(() => {
        setCopied(true);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), 2000);
      })
      .catch(() => {});
  };
  return (
    <div className="code-block">
      <div className="code-block-bar">
        <span className="font-mono">{language ?? 'code'}</span>
        <button type="button" onClick={copy} aria-label={copied ? 'Copied' : 'Copy code'}>
          {copied ? 'Copied' : 'Copy code'}
        </button>
      </div>
      <pre>{children}</pre>
    </div>
  );
}
