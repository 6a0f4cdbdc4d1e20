/**
 * Long answers (bench/markdown.ts prints this after its own figures): the parser's time grows faster than
 * the text for ordinary shapes, so the app parses long text in pieces (app/(chat)/_components/markdown-blocks.ts).
 *
 *  - One answer of short lists between paragraphs, 12 to 100 KB, rendered to HTML by the app's Markdown
 *    component (in pieces) and, beside it in the same run, by react-markdown with the same plugins over the
 *    whole text (what the app did before).
 *  - The same answer of 25 KB streaming in 100 updates: the parse and HTML-tree steps of every update,
 *    the whole text each time against only the pieces that changed (what the memoized pieces re-render).
 */
import { markdownPieces } from '../app/(chat)/_components/markdown-blocks';
import { toHtmlTree } from '../app/(chat)/_components/test-markdown-tree';
import { median, table } from './stats';

/** Short lists between paragraphs, `bytes` long. */
export function listsBetweenParagraphs(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const part = `- item ${i}\n\npara ${i}`;
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('\n\n');
}

/** ms of the parse and HTML-tree steps over a stream of `updates` growing prefixes of `text`. */
function streamingMs(text: string, updates: number, inPieces: boolean): number {
  let previous = new Map<number, string>();
  const start = performance.now();
  for (let u = 1; u <= updates; u++) {
    const shown = text.slice(0, Math.round((text.length * u) / updates));
    if (!inPieces) {
      toHtmlTree(shown);
      continue;
    }
    const now = new Map<number, string>();
    for (const piece of markdownPieces(shown)) {
      now.set(piece.line, piece.text);
      if (previous.get(piece.line) !== piece.text) toHtmlTree(piece.text);
    }
    previous = now;
  }
  return performance.now() - start;
}

export async function longAnswerReport(
  render: (node: React.ReactNode) => Promise<{ ms: number; html: string }>,
  runs: number,
): Promise<string> {
  const React = await import('react');
  const { default: ReactMarkdown } = await import('react-markdown');
  const { Markdown } = await import('../app/(chat)/_components/markdown');
  const { components, keepUrl, remarkPlugins } = await import('../app/(chat)/_components/markdown-config');
  const h = React.createElement;
  const whole = (text: string) =>
    h(
      'div',
      { className: 'prose-chat' },
      h(ReactMarkdown, { remarkPlugins, components, urlTransform: keepUrl }, text),
    );
  const rows: string[][] = [];
  for (const kb of [12, 25, 50, 100]) {
    const text = listsBetweenParagraphs(kb * 1024);
    const before: number[] = [];
    const now: number[] = [];
    for (let r = 0; r < runs; r++) {
      const a = await render(whole(text));
      const b = await render(h(Markdown, { text }));
      // (React's Suspense markers aside: the app's component loads its renderer lazily.)
      if (a.html !== b.html.replace(/<!--.*?-->/g, ''))
        throw new Error(`the pieces' HTML differs from the whole's at ${kb} KB`);
      before.push(a.ms);
      now.push(b.ms);
    }
    rows.push([`${kb} KB`, median(before).toFixed(0), median(now).toFixed(0)]);
  }
  const text = listsBetweenParagraphs(25 * 1024);
  const stream = [streamingMs(text, 100, false), streamingMs(text, 100, true)];
  return [
    'One long answer (short lists between paragraphs) rendered to HTML, ms (p50):',
    table(['answer', 'whole text (before)', 'in pieces (now)'], rows),
    `The same answer of 25 KB streaming in 100 updates, parse and HTML tree of every update: whole text ${stream[0]?.toFixed(0)} ms, changed pieces only ${stream[1]?.toFixed(0)} ms`,
  ].join('\n');
}
