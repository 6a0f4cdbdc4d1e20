/**
 * Text nested too deep to draw as Markdown, found without parsing it: the Markdown parser's time grows with
 * the square of such nesting and its HTML step recurses once per level, so a few KB of untrusted text
 * (`- - - - … x`, `>>>>…`, `[![[![…`, `*****…x*****`) held the browser — and the server rendering the page, every user's
 * requests with it — for seconds to minutes, or overflowed the stack. Such text is shown as written.
 * Pure and isomorphic (markdown-nesting.test.ts).
 */

/** Deeper than anything written by hand; the parser still answers in a few milliseconds at this depth. */
export const MAX_MARKDOWN_NESTING = 32;

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

/** How many block containers (`>` quotes, `-`/`+`/`*`/`1.`/`1)` list items) one line opens at its start. */
export function lineContainers(line: string): number {
  let depth = 0;
  let i = 0;
  for (;;) {
    while (isBlank(line[i])) i++;
    const c = line[i];
    if (c === '>') {
      depth++;
      i++;
      continue;
    }
    if ((c === '-' || c === '+' || c === '*') && (i + 1 === line.length || isBlank(line[i + 1]))) {
      depth++;
      i++;
      continue;
    }
    let j = i;
    while (j < line.length && j - i < 9 && line[j]! >= '0' && line[j]! <= '9') j++;
    if (j > i && (line[j] === '.' || line[j] === ')') && (j + 1 === line.length || isBlank(line[j + 1]))) {
      depth++;
      i = j + 1;
      continue;
    }
    return depth;
  }
}

/**
 * How deep `[…]` pairs nest in one paragraph (links and images nest that way; brackets left open do not
 * count, and a backslash escapes one).
 */
export function bracketNesting(paragraph: string): number {
  const open: number[] = [];
  const pairs = new Map<number, number>();
  for (let i = 0; i < paragraph.length; i++) {
    const c = paragraph[i];
    if (c === '\\') i++;
    else if (c === '[') open.push(i);
    else if (c === ']' && open.length) pairs.set(open.pop()!, i);
  }
  let depth = 0;
  let max = 0;
  const closers = new Set(pairs.values());
  for (let i = 0; i < paragraph.length; i++) {
    if (paragraph[i] === '\\') i++;
    else if (pairs.has(i)) max = Math.max(max, ++depth);
    else if (closers.has(i)) depth--;
  }
  return max;
}

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);
const isBoundary = (c: string | undefined) => isSpace(c) || /[\p{P}\p{S}]/u.test(c ?? '');

/**
 * How deep `*` and `_` emphasis nests in one paragraph, in delimiter characters (`**a**` is 2), roughly
 * as CommonMark pairs them: a run that can open (a space, punctuation or nothing before it, no space after)
 * pushes one per character, one that can close pops as many of the same character. Openers never closed
 * (`*args`) nest nothing.
 */
export function emphasisNesting(paragraph: string): number {
  const open: Array<{ char: string; at: number }> = [];
  const opened = new Set<number>();
  const closed = new Set<number>();
  for (let i = 0; i < paragraph.length; ) {
    const c = paragraph[i];
    if (c !== '*' && c !== '_') {
      i += c === '\\' ? 2 : 1;
      continue;
    }
    let end = i;
    while (paragraph[end] === c) end++;
    const opens = !isSpace(paragraph[end]) && isBoundary(paragraph[i - 1]);
    const closes = !isSpace(paragraph[i - 1]) && isBoundary(paragraph[end]);
    if (opens) for (let k = i; k < end; k++) open.push({ char: c, at: k });
    else if (closes)
      for (let k = i; k < end && open.at(-1)?.char === c; k++) {
        opened.add(open.pop()!.at);
        closed.add(k);
      }
    i = end;
  }
  let depth = 0;
  let max = 0;
  for (let i = 0; i < paragraph.length; i++) {
    if (opened.has(i)) max = Math.max(max, ++depth);
    else if (closed.has(i)) depth--;
  }
  return max;
}

/** True when the text nests deeper than {@link MAX_MARKDOWN_NESTING}: show it as written, never parse it. */
export function nestsTooDeepForMarkdown(text: string, max = MAX_MARKDOWN_NESTING): boolean {
  const lines = text.split('\n');
  if (lines.some((line) => lineContainers(line) > max)) return true;
  // Links and emphasis do not span a blank line: each paragraph on its own keeps this linear.
  return text
    .split(/\n[ \t]*\n/)
    .some(
      (paragraph) =>
        (paragraph.includes('[') && bracketNesting(paragraph) > max) ||
        ((paragraph.includes('*') || paragraph.includes('_')) && emphasisNesting(paragraph) > 2 * max),
    );
}
