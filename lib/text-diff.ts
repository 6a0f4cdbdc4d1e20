import { diffLines } from 'diff';

/** One line of a diff: unchanged, removed or added. */
export type Line = { kind: ' ' | '-' | '+'; text: string };

/**
 * A line diff of two texts, by the `diff` package (Myers: memory linear in the input, so a long schema
 * cannot blow up the page as a full LCS table would). Both texts end in a newline first, so a last line
 * that gained a successor is not shown as changed.
 */
export function lineDiff(before: string, after: string): Line[] {
  return diffLines(`${before}\n`, `${after}\n`).flatMap((change) => {
    const kind: Line['kind'] = change.added ? '+' : change.removed ? '-' : ' ';
    const lines = change.value.split('\n');
    if (lines.at(-1) === '') lines.pop(); // the newline that ends the change's last line
    return lines.map((text) => ({ kind, text }));
  });
}
