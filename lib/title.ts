/** Longest title shown (characters); a longer one is cut with an ellipsis. */
export const TITLE_MAX = 80;

function capped(folded: string): string {
  const chars = [...folded];
  return chars.length > TITLE_MAX ? `${chars.slice(0, TITLE_MAX - 1).join('')}…` : folded;
}

/**
 * A conversation title from the first message: whitespace and control characters (a pasted U+0000, which a
 * Postgres text column cannot hold) folded into single spaces, at most 80 characters.
 */
export function titleFrom(text: string): string {
  const folded = text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  if (!folded) return 'New chat';
  return capped(folded);
}

const QUOTES = `"'\`“”‘’«»「」『』“”`;
const EDGE_QUOTES = new RegExp(`^[${QUOTES}]+|[${QUOTES}]+$`, 'gu');

/**
 * A model-written title made safe to show: untrusted text, so its first non-empty line only, no control
 * characters, no "Title:" label, Markdown marks or surrounding quotes, whitespace folded, at most 80
 * characters. Null when nothing is left (the first words stay).
 */
export function cleanTitle(raw: string): string | null {
  const line =
    raw
      // Reasoning models may think aloud first.
      .replace(/<think>[\s\S]*?<\/think>/gi, '')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find(Boolean) ?? '';
  let text = line.replace(/\p{Cc}|\p{Cf}/gu, ' ').replace(/\s+/g, ' ');
  // Peel labels, Markdown marks, quotes and a final full stop until none is left at the edges.
  for (let before = ''; before !== text; ) {
    before = text;
    text = text
      .trim()
      .replace(/^(?:#+\s*|[*_]+)/u, '')
      .replace(/^(?:title|标题)\s*[:：]\s*/iu, '')
      .replace(/[*_]+$/u, '')
      .replace(EDGE_QUOTES, '')
      .replace(/[.。]+$/u, '');
  }
  return text ? capped(text) : null;
}
