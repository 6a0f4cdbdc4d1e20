/**
 * Markdown benchmark (issue 17): what rendering math, code and diagrams costs, and what the chat page
 * downloads before it is interactive.
 *
 *  - Server render (react-dom/static prerender, which waits for every lazy chunk: KaTeX, the highlighter)
 *    of a 1,000-message conversation whose answers have display and inline math and a highlighted code
 *    block, through the app's own Markdown component (markdown.tsx, as the chat page renders a message), p50/min over RUNS renders; beside
 *    it, in the same run and through the same renderer, 1,000 plain-text messages of the same length.
 *  - The chat page's first-load JavaScript, gzipped: the files the build manifests list for `/` (Next's
 *    root main files plus the entry chunks of the root layout, the (chat) layout and the chat page). Read
 *    from an existing production build (.next); says so when there is none. Also the lazy chunks that load
 *    only when a message needs them (KaTeX, the highlighter, Mermaid), found by what they contain.
 *  - Long answers, whole and in pieces (bench/markdown-long.ts).
 * Prints figures only, never pass/fail.
 *
 *   ./node_modules/.bin/node --import tsx bench/markdown.ts
 * (without --conditions=react-server: this renders client components with react-dom.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { register } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { longAnswerReport } from './markdown-long';
import { median, table } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..');
const NEXT = path.join(ROOT, '.next');
const MESSAGES = 1_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

// Node cannot import CSS (KaTeX's stylesheet in markdown-math.tsx): an empty module stands in for it.
register(
  'data:text/javascript,export async function load(url, context, next) { if (url.endsWith(".css")) return { format: "module", source: "", shortCircuit: true }; return next(url, context); }',
);

/** An answer with display math, inline math, a price that stays text and a TypeScript block. */
function richAnswer(i: number): string {
  return [
    `Step ${i}: the area is`,
    `\\[ A_{${i}} = \\pi r^2 + \\frac{${i}}{2} \\]`,
    'and the energy $E=mc^2$ holds.',
    'It cost $5 and $10 in total.',
    '',
    '```ts',
    `export function step${i}(xs: number[]): number {`,
    '  // sum of the inputs',
    `  return xs.reduce((a, b) => a + b, ${i});`,
    '}',
    '```',
  ].join('\n');
}

const question = (i: number) => `Question ${i}: how would I compute step ${i} of this pipeline?`;

/** Plain prose of the same length as the rich answer. */
function plainAnswer(i: number): string {
  const target = richAnswer(i).length;
  let text = `Step ${i}:`;
  for (let k = 0; text.length < target; k++) text += ` word${(i * 7 + k) % 97}`;
  return text;
}

async function main() {
  const React = await import('react');
  const { prerenderToNodeStream } = await import('react-dom/static');
  const { NextIntlClientProvider } = await import('next-intl');
  const messages = (await import('../messages/en.json', { with: { type: 'json' } })).default;
  const { Markdown } = await import('../app/(chat)/_components/markdown');
  const h = React.createElement;

  const conversation = (answer: (i: number) => string) =>
    Array.from({ length: MESSAGES }, (_, i) => (i % 2 === 0 ? question(i) : answer(i)));

  async function renderNode(children: React.ReactNode): Promise<{ ms: number; bytes: number; html: string }> {
    const tree = h(NextIntlClientProvider, { locale: 'en', messages, timeZone: 'UTC', children });
    const start = performance.now();
    const { prelude } = await prerenderToNodeStream(tree);
    const chunks: Buffer[] = [];
    for await (const chunk of prelude) chunks.push(chunk as Buffer);
    const ms = performance.now() - start;
    const html = Buffer.concat(chunks).toString('utf8');
    if (process.env.BENCH_DUMP) (await import('node:fs')).writeFileSync(process.env.BENCH_DUMP, html);
    return { ms, bytes: Buffer.byteLength(html), html };
  }
  const render = (texts: string[]) =>
    renderNode(texts.map((text, i) => h('article', { key: i }, h(Markdown, { text }))));

  const rich = conversation(richAnswer);
  const plain = conversation(plainAnswer);
  // Warm-up: loads the lazy chunks (KaTeX, the highlighter) and lets the JIT settle.
  await render(rich.slice(0, 50));
  await render(plain.slice(0, 50));
  const samples = { rich: [] as number[], plain: [] as number[] };
  let sizes = { rich: 0, plain: 0 };
  let richHtml = '';
  for (let r = 0; r < RUNS; r++) {
    const p = await render(plain);
    const m = await render(rich);
    samples.plain.push(p.ms);
    samples.rich.push(m.ms);
    sizes = { rich: m.bytes, plain: p.bytes };
    richHtml = m.html;
  }
  const row = (name: string, xs: number[], bytes: number) => [
    name,
    median(xs).toFixed(0),
    Math.min(...xs).toFixed(0),
    (median(xs) / MESSAGES).toFixed(3),
    (bytes / 1024).toFixed(0),
  ];

  console.log(
    `\nMarkdown benchmark — Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu?'} ×${os.cpus().length}, load avg ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
  );
  console.log(
    `Server render of a ${MESSAGES.toLocaleString('en')}-message conversation (${RUNS} runs each):`,
  );
  console.log(
    table(
      ['conversation', 'p50 ms', 'min ms', 'ms/message', 'HTML KB'],
      [
        row('plain text (baseline)', samples.plain, sizes.plain),
        row('math + code blocks', samples.rich, sizes.rich),
      ],
    ),
  );
  const count = (re: RegExp) => richHtml.match(re)?.length ?? 0;
  console.log(
    `(the math + code HTML holds ${count(/class="katex"/g)} KaTeX formulas, ${count(/class="katex-display"/g)} of them display, and ${count(/class="hljs language-ts"/g)} highlighted code blocks; React writes a message's text as written, the Suspense fallback, before a message it outlines: past the first 12.8 KB, or holding KaTeX's stylesheet)`,
  );
  console.log(`\n${await longAnswerReport(renderNode, RUNS)}`);
  console.log(`\n${firstLoadReport()}`);
}

type Manifest = { entryJSFiles?: Record<string, string[]> };

function gzipKB(files: Iterable<string>): { files: number; raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  let n = 0;
  for (const f of files) {
    const bytes = readFileSync(path.join(NEXT, f));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    n++;
  }
  return { files: n, raw, gzip };
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;

/** The chat page's first-load JS from the build manifests, and the lazy chunks beside it. */
function firstLoadReport(): string {
  if (!existsSync(path.join(NEXT, 'BUILD_ID')))
    return 'Chat page first-load JS: no production build (.next/BUILD_ID missing); run `npm run build` first.';
  const build = JSON.parse(readFileSync(path.join(NEXT, 'build-manifest.json'), 'utf8')) as {
    rootMainFiles: string[];
  };
  const src = readFileSync(path.join(NEXT, 'server/app/(chat)/page_client-reference-manifest.js'), 'utf8');
  const holder = globalThis as { __RSC_MANIFEST?: Record<string, Manifest> };
  holder.__RSC_MANIFEST = {};
  new Function(src)();
  const manifest = holder.__RSC_MANIFEST['/(chat)/page'];
  const files = new Set(build.rootMainFiles);
  for (const entry of ['[project]/app/layout', '[project]/app/(chat)/layout', '[project]/app/(chat)/page'])
    for (const f of manifest?.entryJSFiles?.[entry] ?? []) files.add(f);
  const first = gzipKB(files);

  // Lazy chunks. next/dynamic imports (KaTeX with its CSS, the highlighter) are listed in the page's
  // react-loadable manifest, named by what they contain (chunk names are hashes). Mermaid and the
  // highlight.js grammars are plain import()s: every other chunk that mentions Mermaid (all its diagram
  // types; one diagram loads only a part) or looks like a grammar (one loads per language shown).
  const loadable = JSON.parse(
    readFileSync(path.join(NEXT, 'server/app/(chat)/page/react-loadable-manifest.json'), 'utf8'),
  ) as Record<string, { files: string[] }>;
  const read = (f: string) => readFileSync(path.join(NEXT, f), 'utf8');
  const lazy = {
    katex: new Set<string>(),
    highlight: new Set<string>(),
    grammars: new Set<string>(),
    mermaid: new Set<string>(),
  };
  const listed = new Set<string>();
  for (const { files: group } of Object.values(loadable)) {
    // (The manifest can name chunks the client build did not emit; those are skipped.)
    const js = group.filter((f) => f.endsWith('.js') && !files.has(f) && existsSync(path.join(NEXT, f)));
    for (const f of js) listed.add(f);
    const text = js.map(read).join('\n');
    if (text.includes('KaTeX parse error')) for (const f of js) lazy.katex.add(f);
    else if (text.includes('hljs')) for (const f of js) lazy.highlight.add(f);
  }
  const dir = path.join(NEXT, 'static/chunks');
  for (const name of readdirSync(dir)) {
    const rel = `static/chunks/${name}`;
    if (!name.endsWith('.js') || files.has(rel) || listed.has(rel)) continue;
    const text = read(rel);
    if (/mermaid/i.test(text)) lazy.mermaid.add(rel);
    else if (/\bbeginKeywords\b|case_insensitive/.test(text)) lazy.grammars.add(rel);
  }
  const rows = [
    ['chat page first load (/)', first],
    ['KaTeX (lazy, first formula)', gzipKB(lazy.katex)],
    ['highlighter core (lazy, first code block)', gzipKB(lazy.highlight)],
    [`highlight.js grammars (lazy, one per language)`, gzipKB(lazy.grammars)],
    ['Mermaid (lazy, all diagram types)', gzipKB(lazy.mermaid)],
  ] as const;
  return [
    `JavaScript from the production build in .next (build ${readFileSync(path.join(NEXT, 'BUILD_ID'), 'utf8').trim()}), gzip -9:`,
    table(
      ['what', 'files', 'raw', 'gzipped'],
      rows.map(([name, s]) => [name, String(s.files), kb(s.raw), kb(s.gzip)]),
    ),
  ].join('\n');
}

await main();
