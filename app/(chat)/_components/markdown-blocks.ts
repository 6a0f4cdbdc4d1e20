/**
 * Long Markdown cut into pieces that are parsed one by one. The parser (micromark) rewrites its whole
 * list of events each time a list or quote closes, so its time grows with the square of the text for
 * ordinary shapes: short lists between paragraphs took ~1 s for 50 KB and ~4.4 s for 100 KB (a 2-core VM),
 * the browser's one thread blocked meanwhile, and an answer streaming in was parsed whole again on
 * every update. Pieces of ~2,000 characters keep each parse short, the total linear, and an answer
 * streaming in re-parses only its last piece (the others are unchanged strings).
 *
 * A cut is made only where it cannot change the result: at a blank line outside fenced code and `$$`
 * math, before a line that starts a new top-level block (not indented, not a list item, which could
 * still belong to the list above). Text with a link reference or footnote definition (which apply to
 * the whole text), an HTML block (which may run over blank lines, or hold lines that look like fences) or
 * carriage returns is not cut.
 * markdown-blocks.test.ts checks that the pieces give the same HTML as the whole.
 */

/** The length a piece reaches before the next possible cut ends it. */
export const MARKDOWN_PIECE_CHARS = 2_000;

export type MarkdownPiece = {
  text: string;
  /** 1-based line of the whole text the piece starts at. */
  line: number;
};

/** A fence of code (``` or ~~~) or math ($$), at the top level or opening a list item. */
const FENCE = /^( {0,3}(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*)(`{3,}|~{3,}|\${2,})(.*)$/;
/** A link reference or footnote definition, possibly inside a quote or list item. */
const DEFINITION = /^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*\[[^\]\n]+\]:/m;
/** A line that may start an HTML block (which may hold lines that look like fences, or blank lines). */
const HTML = /^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*<[A-Za-z/!?]/;
/** A line that may continue the block above it across a blank line: indented, or a list item. */
const MAY_CONTINUE = /^(?:[ \t]|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;
const indentOf = (line: string) => /^[ \t]*/.exec(line)?.[0].length ?? 0;
/** Blank to Markdown: spaces and tabs only (a no-break space is text). */
const blank = (line: string | undefined) => /^[ \t]*$/.test(line ?? '');

export function markdownPieces(text: string, size = MARKDOWN_PIECE_CHARS): MarkdownPiece[] {
  const whole = [{ text, line: 1 }];
  // (A carriage return ends a line for the parser but not for this scan.)
  if (text.length <= size || DEFINITION.test(text) || text.includes('\r')) return whole;
  const lines = text.split('\n');
  const pieces: MarkdownPiece[] = [];
  let start = 0;
  let length = 0;
  // The fence open at this line: its character, length and the column its marker starts at.
  let fence: { char: string; length: number; column: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = FENCE.exec(line);
    if (fence) {
      // An indented fence (in a list item, most often) ends with its container at a line indented less
      // than its marker, which may then open a fence of its own; telling that from a line of the fence's
      // code takes a parser: such text is not cut at all.
      if (fence.column > 0 && !blank(line) && indentOf(line) < fence.column) return whole;
      const sequence = marker?.[2] ?? '';
      const closes =
        marker?.[1]?.trim() === '' &&
        sequence[0] === fence.char &&
        sequence.length >= fence.length &&
        blank(marker[3]);
      if (closes) fence = null;
    } else {
      if (HTML.test(line)) return whole;
      if (length >= size && i > 0 && blank(lines[i - 1]) && !blank(line) && !MAY_CONTINUE.test(line)) {
        pieces.push({ text: lines.slice(start, i).join('\n'), line: start + 1 });
        start = i;
        length = 0;
      }
      const sequence = marker?.[2];
      // An info string after backticks (or a `$$` meta) cannot hold the fence's own character.
      if (marker && sequence && !(sequence[0] !== '~' && marker[3]?.includes(sequence[0] as string)))
        fence = { char: sequence[0] as string, length: sequence.length, column: marker[1]?.length ?? 0 };
    }
    length += line.length + 1;
  }
  pieces.push({ text: lines.slice(start).join('\n'), line: start + 1 });
  return pieces;
}
