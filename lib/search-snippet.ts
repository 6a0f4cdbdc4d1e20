/** Search snippets mark each match between \u0002 and \u0003 (SQLite FTS5 snippet()). Isomorphic, no React. */
export type SnippetSegment = { text: string; match: boolean };

const START = '\u0002';
const END = '\u0003';

/** Splits a snippet into plain and matched runs; stray or unbalanced markers never leak into the text. */
export function splitSnippet(snippet: string): SnippetSegment[] {
  const segments: SnippetSegment[] = [];
  let match = false;
  let text = '';
  const flush = () => {
    if (!text) return;
    const prev = segments.at(-1);
    if (prev && prev.match === match) prev.text += text;
    else segments.push({ text, match });
    text = '';
  };
  for (const ch of snippet) {
    if (ch === START || ch === END) {
      flush();
      match = ch === START;
    } else {
      text += ch;
    }
  }
  flush();
  return segments;
}
