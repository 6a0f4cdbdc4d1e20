'use client';

import { useTranslations } from 'next-intl';
import { type ReactNode, useEffect, useRef, useState } from 'react';

export type HastNode = {
  position?: { start?: { line?: number } };
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
 * and says "Copied" for a moment. `children` is the block's body (the `<pre>` by default); `note` shows
 * under it (e.g. why a diagram could not be drawn).
 */
export function CodeBlock({
  language,
  code,
  children,
  note,
}: {
  language: string | undefined;
  code: string;
  children: ReactNode;
  note?: ReactNode;
}) {
  const t = useTranslations('markdown');
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = () => {
    void navigator.clipboard
      ?.writeText(code)
      .then(() => {
        setCopied(true);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), 2000);
      })
      .catch(() => {});
  };
  const label = copied ? t('copied') : t('copyCode');
  return (
    <div className="code-block">
      <div className="code-block-bar">
        <span className="font-mono">{language ?? t('code')}</span>
        <button type="button" onClick={copy} aria-label={label}>
          {label}
        </button>
      </div>
      {children}
      {note}
    </div>
  );
}
