/**
 * U+0000 (NUL) and the database. A Postgres `text` column cannot hold it ("invalid byte sequence"), SQLite's
 * can; JSON columns (message parts and metadata) hold it escaped on both. So that both databases keep the same:
 * - a user's own input bound for a text column may not hold it: `.refine(hasNoNul, NO_NUL)`, a 400 naming the
 *   field on either database;
 * - text from elsewhere (a model, an MCP server, an identity provider, an imported file) is stored with
 *   U+FFFD in its place (storableText), never refused: it must not be lost for one character.
 */

/** The field message of a refused NUL. */
export const NO_NUL = 'must not contain the NUL character (U+0000)';

export const hasNoNul = (value: string): boolean => !value.includes('\u0000');

/** `text` as a text column of either database can hold it: each U+0000 replaced by U+FFFD. */
export function storableText(text: string): string;
export function storableText(text: string | null | undefined): string | null | undefined;
export function storableText(text: string | null | undefined): string | null | undefined {
  return text?.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}
