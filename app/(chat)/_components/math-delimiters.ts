/**
 * Rewrites the math delimiters models write into the one form remark-math is configured to read (`$$`
 * only: `singleDollarTextMath: false`), so a lone `$` is always plain text.
 *
 * The rule (outside fenced code blocks and inline code spans, which are copied untouched):
 * - `\[…\]` and `$$…$$` are display math. On a line of its own (only blank space or `>` quote marks before
 *   the opener, only blank space after the closer) it becomes a `$$` block; inside a line it becomes inline
 *   math set in `\displaystyle`.
 * - `\(…\)` is inline math.
 * - `$…$` is inline math only when the opening `$` is followed by neither blank space nor a digit, the
 *   closing `$` is on the same line, is not preceded by blank space and is not followed by a digit (Pandoc's
 *   rule, stricter on the opener): "I paid $5 and $10" stays text, `$E=mc^2$` is math.
 * - `\$` is an escaped dollar (text) and is kept as written; a backslash escape is never split.
 * - An opener without its closer (e.g. a formula still streaming in) is left as text; a stray `$$` is
 *   escaped so it cannot open a math block.
 */
export function normalizeMath(source: string): string {
  if (!/[$\\]/.test(source)) return source;
  const lines = source.split('\n');
  const out: string[] = [];
  let chunk: string[] = [];
  let fence: { char: string; length: number } | null = null;
  const flush = () => {
    if (chunk.length) out.push(rewrite(chunk.join('\n')));
    chunk = [];
  };
  for (const line of lines) {
    const marker = /^[ \t>]*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      out.push(line);
      if (marker && marker[0] === fence.char && marker.length >= fence.length && isFenceClose(line))
        fence = null;
      continue;
    }
    if (marker && !(marker[0] === '`' && line.slice(line.indexOf(marker) + marker.length).includes('`'))) {
      flush();
      out.push(line);
      fence = { char: marker.charAt(0), length: marker.length };
      continue;
    }
    chunk.push(line);
  }
  flush();
  return out.join('\n');
}

/** A closing fence has nothing but blank space after its marker. */
const isFenceClose = (line: string) => /^[ \t>]*(`{3,}|~{3,})[ \t]*$/.test(line);

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Index of `close` in `text` from `from`, skipping backslash escapes; -1 if absent. */
function findClose(text: string, from: number, close: string, sameLine = false): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (sameLine && c === '\n') return -1;
    if (text.startsWith(close, i)) return i;
    if (c === '\\') i++;
  }
  return -1;
}

/** The closing `$` of inline math opened at `open`, per the rule above; -1 if none. */
function findInlineClose(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') return -1;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '$' && !isSpace(text[i - 1]) && !isDigit(text[i + 1]) && text[i + 1] !== '$') return i;
  }
  return -1;
}

/** Blank space / quote marks from the line start to `at`, or null if anything else is there. */
function linePrefix(text: string, at: number): string | null {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const before = text.slice(start, at);
  return /^[ \t>]*$/.test(before) ? before : null;
}

const restOfLineBlank = (text: string, from: number) => {
  const end = text.indexOf('\n', from);
  return /^[ \t]*$/.test(text.slice(from, end === -1 ? text.length : end));
};

function display(text: string, open: number, body: string, after: number): string {
  const prefix = linePrefix(text, open);
  const tex = body.trim();
  if (prefix !== null && restOfLineBlank(text, after)) return `$$\n${prefix}${tex}\n${prefix}$$`;
  return `$$\\displaystyle ${tex.replaceAll('\n', ' ')}$$`;
}

/** Rewrites one run of lines outside fenced code. */
function rewrite(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '`') {
      // An inline code span is copied as is: from a backtick run to the next run of the same length.
      let n = 1;
      while (text[i + n] === '`') n++;
      const run = '`'.repeat(n);
      let j = text.indexOf(run, i + n);
      while (j !== -1 && text[j + n] === '`') {
        let k = j;
        while (text[k] === '`') k++;
        j = text.indexOf(run, k);
      }
      const end = j === -1 ? i + n : j + n;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (c === '\\') {
      const next = text[i + 1];
      if (next === '[' || next === '(') {
        const close = findClose(text, i + 2, next === '[' ? '\\]' : '\\)');
        if (close !== -1 && text.slice(i + 2, close).trim()) {
          const body = text.slice(i + 2, close);
          out += next === '[' ? display(text, i, body, close + 2) : `$$${body.trim()}$$`;
          i = close + 2;
          continue;
        }
      }
      out += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '$') {
      if (text[i + 1] === '$') {
        const close = findClose(text, i + 2, '$$');
        if (close !== -1 && text.slice(i + 2, close).trim()) {
          out += display(text, i, text.slice(i + 2, close), close + 2);
          i = close + 2;
          continue;
        }
        let n = 2;
        while (text[i + n] === '$') n++;
        out += '\\$'.repeat(n);
        i += n;
        continue;
      }
      const next = text[i + 1];
      if (next !== undefined && !isSpace(next) && !isDigit(next)) {
        const close = findInlineClose(text, i);
        if (close !== -1) {
          out += `$$${text.slice(i + 1, close)}$$`;
          i = close + 1;
          continue;
        }
      }
      out += out.endsWith('$') ? '\\$' : '$';
      i++;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}
