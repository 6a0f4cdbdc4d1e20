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
 * The languages code blocks are highlighted in (with their aliases: js, ts, sh, py, html, yml, md, …). A
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

type Node = {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: Node[];
};

const textOf = (node: Node): string =>
  node.type === 'text' ? (node.value ?? '') : (node.children ?? []).map(textOf).join('');

/** `language-x` / `lang-x` of a code element; false for no-highlight. */
function languageOf(node: Node): string | false | undefined {
  const list = node.properties?.className;
  if (!Array.isArray(list)) return undefined;
  let name: string | undefined;
  for (const raw of list) {
    const value = String(raw);
    if (value === 'no-highlight' || value === 'nohighlight') return false;
    if (!name && value.startsWith('lang-')) name = value.slice(5);
    if (!name && value.startsWith('language-')) name = value.slice(9);
  }
  return name;
}

function walk(node: Node, parent: Node | null): void {
  if (
    node.type === 'element' &&
    node.tagName === 'code' &&
    parent?.type === 'element' &&
    parent.tagName === 'pre'
  ) {
    const lang = languageOf(node);
    if (!lang) return;
    node.properties = node.properties ?? {};
    const classes = Array.isArray(node.properties.className) ? node.properties.className : [];
    node.properties.className = classes.includes('hljs') ? classes : ['hljs', ...classes];
    if (!lowlight.registered(lang)) return;
    const result = lowlight.highlight(lang, textOf(node));
    if (result.children.length) node.children = result.children as Node[];
    return;
  }
  for (const child of node.children ?? []) walk(child, node);
}

/**
 * Rehype plugin: highlights `<pre><code class="language-x">` blocks as rehype-highlight does with
 * `detect: false` (hljs token spans, the `hljs` class), for the languages above only.
 */
export function rehypeHighlightCode() {
  return (tree: Node) => walk(tree, null);
}
