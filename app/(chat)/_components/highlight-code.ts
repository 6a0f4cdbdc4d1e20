import type { LanguageFn } from 'highlight.js';
import { createLowlight } from 'lowlight';

/**
 * Code highlighting with highlight.js's 37 "common" languages (lowlight), each grammar its own chunk,
 * loaded the first time a code block in that language is shown. A language outside this list shows as
 * plain monospace text.
 */
const GRAMMARS: Record<string, () => Promise<{ default: LanguageFn }>> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  less: () => import('highlight.js/lib/languages/less'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  objectivec: () => import('highlight.js/lib/languages/objectivec'),
  perl: () => import('highlight.js/lib/languages/perl'),
  php: () => import('highlight.js/lib/languages/php'),
  'php-template': () => import('highlight.js/lib/languages/php-template'),
  plaintext: () => import('highlight.js/lib/languages/plaintext'),
  python: () => import('highlight.js/lib/languages/python'),
  'python-repl': () => import('highlight.js/lib/languages/python-repl'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  vbnet: () => import('highlight.js/lib/languages/vbnet'),
  wasm: () => import('highlight.js/lib/languages/wasm'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

/** The grammars' own aliases (generated from highlight.js 11.11), so a name resolves before any loads. */
const ALIASES: Record<string, string> = {
  html: 'xml',
  xhtml: 'xml',
  rss: 'xml',
  atom: 'xml',
  xjb: 'xml',
  xsd: 'xml',
  xsl: 'xml',
  plist: 'xml',
  wsf: 'xml',
  svg: 'xml',
  sh: 'bash',
  zsh: 'bash',
  h: 'c',
  cc: 'cpp',
  'c++': 'cpp',
  'h++': 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  cxx: 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  md: 'markdown',
  mkdown: 'markdown',
  mkd: 'markdown',
  patch: 'diff',
  rb: 'ruby',
  gemspec: 'ruby',
  podspec: 'ruby',
  thor: 'ruby',
  irb: 'ruby',
  golang: 'go',
  gql: 'graphql',
  toml: 'ini',
  jsp: 'java',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsonc: 'json',
  json5: 'json',
  kt: 'kotlin',
  kts: 'kotlin',
  pluto: 'lua',
  mk: 'makefile',
  mak: 'makefile',
  make: 'makefile',
  pl: 'perl',
  pm: 'perl',
  mm: 'objectivec',
  objc: 'objectivec',
  'obj-c': 'objectivec',
  'obj-c++': 'objectivec',
  'objective-c++': 'objectivec',
  text: 'plaintext',
  txt: 'plaintext',
  py: 'python',
  gyp: 'python',
  ipython: 'python',
  pycon: 'python-repl',
  rs: 'rust',
  console: 'shell',
  shellsession: 'shell',
  yml: 'yaml',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  vb: 'vbnet',
};

/** Grammars another one embeds (`subLanguage`), loaded with it: e.g. CSS and JavaScript inside HTML. */
const EMBEDS: Record<string, string[]> = {
  xml: ['css', 'javascript'],
  'php-template': ['php', 'xml', 'css', 'javascript'],
  'python-repl': ['python'],
  shell: ['bash'],
  markdown: [],
};

const lowlight = createLowlight();

/** The grammar a fence's language names (`py`, `Python`, `c++` …), or undefined if it is not one of ours. */
export function grammarName(language: string): string | undefined {
  const name = language.toLowerCase();
  if (Object.hasOwn(GRAMMARS, name)) return name;
  return Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
}

const loading = new Map<string, Promise<void>>();

/**
 * Loads a grammar (and those it embeds) once; the same promise every time, so a component can `use()` it.
 */
export function loadGrammar(name: string): Promise<void> {
  let promise = loading.get(name);
  if (!promise) {
    const names = [name, ...(EMBEDS[name] ?? [])];
    promise = Promise.all(
      names.map(async (n) => {
        const load = GRAMMARS[n];
        if (!load) return;
        const grammar = (await load()).default;
        if (!lowlight.registered(n)) lowlight.register(n, grammar);
      }),
    ).then(() => undefined);
    loading.set(name, promise);
  }
  return promise;
}

export type HastNode = {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
};

/** The code as highlight.js token trees (`hljs-*` spans); null until its grammar is loaded. */
export function highlightCode(name: string, code: string): HastNode[] | null {
  if (!lowlight.registered(name)) return null;
  return lowlight.highlight(name, code).children as HastNode[];
}
