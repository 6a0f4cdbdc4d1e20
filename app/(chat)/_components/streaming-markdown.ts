import remend from 'remend';

/**
 * What remend completes while text streams in: bold/italic/strikethrough markers, inline code spans, links
 * (an unfinished link gets the placeholder URL `streamdown:incomplete-link`, which the link component shows
 * as plain text; an unfinished image gets `streamdown:incomplete-image`, which the image component shows as
 * removed). Math is left to normalizeMath: an unclosed formula stays text.
 */
const remendOptions = { katex: false, inlineKatex: false } as const;

export type PreparedMarkdown = {
  /** The Markdown to render: unfinished inline markers and an unfinished fence closed. */
  text: string;
  /** 1-based line (in `text`) of a fenced code block that was still open at the end, else null. */
  openFenceLine: number | null;
};

const FENCE = /^([ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?[ \t]*)(`{3,}|~{3,})(.*)$/;

/**
 * Makes partial Markdown (an answer still streaming in) render sanely: remend closes unfinished inline
 * markers, and a fenced code block that has no closing fence yet gets one (its line is reported, so a
 * block that must wait for its whole source, e.g. a Mermaid diagram, shows its code until then).
 * Finished text (`streaming` false) is returned as written: completing markers there would turn e.g.
 * "2**10 = 1024" into bold. Expects text already passed through normalizeMath.
 */
export function prepareStreamingMarkdown(source: string, streaming = true): PreparedMarkdown {
  if (!streaming) return { text: source, openFenceLine: null };
  const text = remend(source, remendOptions);
  const lines = text.split('\n');
  let open: { line: number; prefix: string; char: string; length: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i] ?? '');
    if (!m) continue;
    const prefix = m[1] ?? '';
    const marker = m[2] ?? '';
    const rest = m[3] ?? '';
    if (open) {
      if (marker[0] === open.char && marker.length >= open.length && /^[ \t]*$/.test(rest)) open = null;
      continue;
    }
    // A backtick fence's info string cannot contain a backtick (then it is inline code, not a fence).
    if (marker[0] === '`' && rest.includes('`')) continue;
    open = { line: i + 1, prefix, char: marker.charAt(0), length: marker.length };
  }
  if (!open) return { text, openFenceLine: null };
  // The closing fence keeps the opener's container (quote marks; a list item's indent as spaces).
  const container = open.prefix.replace(/(?:[-+*]|\d{1,9}[.)])(?=[ \t])/, (m) => ' '.repeat(m.length));
  const close = `${container}${open.char.repeat(open.length)}`;
  return { text: `${text}${text.endsWith('\n') ? '' : '\n'}${close}`, openFenceLine: open.line };
}
