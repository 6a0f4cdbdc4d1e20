import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';

/**
 * Loaded on demand (highlighted-code.tsx, its own chunk, when a message first shows a fenced block with a
 * language). The languages code blocks are highlighted in (with their aliases: js, ts, sh, py, html, yml, md, …). A
 * small set instead of highlight.js's 37 "common" ones keeps the Markdown chunk small; other languages
 * show as plain monospace text.
 */
const lowlight = createLowlight({
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
});

export type HastNode = {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
};

/**
 * The code as highlight.js token trees (`hljs-*` spans), or null when the language is not one of the above
 * (then it shows as plain monospace text).
 */
export function highlightCode(language: string, code: string): HastNode[] | null {
  if (!lowlight.registered(language)) return null;
  return lowlight.highlight(language, code).children as HastNode[];
}
