/**
 * How Postgres search reads text so it finds what SQLite's FTS5 (`unicode61 remove_diacritics 2`) finds, with no
 * extension: case folded for Latin, Greek and Cyrillic letters and diacritics for Latin ones by a fixed table (Postgres's
 * translate(), the same in every database whatever its locale), combining marks dropped, punctuation and symbols read
 * as spaces, then the 'simple' text search configuration. The SQL function search_text() in db/migrations-pg holds
 * FOLD_FROM and FOLD_TO literally (db/search-pg.test.ts checks it); queries fold their words with foldText here.
 * Also FTS5's snippet(), rebuilt in JS over the same tokens (ftsSnippet), since ts_headline picks other words.
 */

/**
 * How much of a message's text search reads: its first 200,000 characters, on both databases (the
 * db/migrations* SQL holds the number literally). Postgres cannot index more: a tsvector holds at most 1 MB
 * (1,048,575 bytes), and one word costs it at most 4 bytes per character of the text it comes from (a
 * one-character word of 4 UTF-8 bytes and the space after it: 4 bytes of lexeme, 2 of position count and 2
 * of position), so 200,000 characters need at most 800,000 bytes, whatever the text.
 */
export const SEARCH_TEXT_CHARS = 200_000;

/**
 * Letters folded as FTS5's unicode61 folds them: Latin letters to their canonical decomposition without marks,
 * lower-cased (remove_diacritics 2); Greek and Cyrillic letters only lower-cased (FTS5 keeps their accents). Only
 * where the result is one other character.
 */
function foldTable(): { from: string; to: string } {
  let from = '';
  let to = '';
  const ranges: Array<[number, number, 'strip' | 'lower']> = [
    [0x00c0, 0x024f, 'strip'], // Latin-1 letters, Latin Extended-A and -B
    [0x1e00, 0x1eff, 'strip'], // Latin Extended Additional (Vietnamese…)
    [0x0370, 0x03ff, 'lower'], // Greek
    [0x1f00, 0x1fff, 'lower'], // Greek Extended
    [0x0400, 0x052f, 'lower'], // Cyrillic
  ];
  for (const [low, high, how] of ranges)
    for (let cp = low; cp <= high; cp++) {
      const ch = String.fromCodePoint(cp);
      if (!/\p{L}/u.test(ch)) continue;
      const folded = (how === 'strip' ? ch.normalize('NFD').replace(/\p{M}/gu, '') : ch).toLowerCase();
      if (folded !== ch && [...folded].length === 1) {
        from += ch;
        to += folded;
      }
    }
  return { from, to };
}

export const { from: FOLD_FROM, to: FOLD_TO } = foldTable();
const FOLD = new Map([...FOLD_FROM].map((ch, i) => [ch, [...FOLD_TO][i] as string]));

/** The fold search_text() applies in SQL (translate with the table, combining marks dropped). */
export function foldText(text: string): string {
  let out = '';
  for (const ch of text) out += FOLD.get(ch) ?? ch;
  return out.replace(/[\u0300-\u036f]/g, '');
}

/** Punctuation, symbols and spaces (FTS5 separators) that the Postgres parser might read as part of a word. */
const SEPARATORS: Array<[number, number]> = [
  [0x01, 0x2f],
  [0x3a, 0x40],
  [0x5b, 0x60],
  [0x7b, 0xa9],
  [0xab, 0xb1],
  [0xb4, 0xb4],
  [0xb6, 0xb8],
  [0xbb, 0xbb],
  [0xbf, 0xbf],
  [0xd7, 0xd7],
  [0xf7, 0xf7],
  [0x2000, 0x206f], // general punctuation
  [0x20a0, 0x20cf], // currency
  [0x2190, 0x2bff], // arrows, maths, technical, box drawing, shapes, dingbats
  [0x3000, 0x3004], // CJK spaces and punctuation
  [0x3008, 0x3020],
  [0x3030, 0x3030],
  [0xfe30, 0xfe6f], // CJK compatibility and small forms
  [0xff01, 0xff0f], // full-width punctuation
  [0xff1a, 0xff20],
  [0xff3b, 0xff40],
  [0xff5b, 0xff65],
  [0x1f000, 0x1faff], // emoji and pictographs
];

const hex = (cp: number, width: number) => cp.toString(16).padStart(width, '0');
/** The separators as a Postgres (ARE) bracket expression, as search_text() holds it. */
export const SEPARATORS_PG = `[${SEPARATORS.map(([a, b]) =>
  [a, b].map((cp) => (cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`)).join('-'),
).join('')}]`;
const SEPARATORS_JS = new RegExp(
  `[${SEPARATORS.map(([a, b]) => `\\u{${hex(a, 1)}}-\\u{${hex(b, 1)}}`).join('')}]`,
  'gu',
);

/** What search_text() in SQL makes of a text: folded, marks dropped, separators as spaces. */
export function searchText(text: string): string {
  return foldText(text).replace(SEPARATORS_JS, ' ');
}

/** A letter of Chinese or Japanese, written without spaces between words (a lookahead keeps out their punctuation). */
const UNSPACED = '(?=[\\p{L}\\p{N}\\p{Mn}])[\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}]';
const HAS_UNSPACED = new RegExp(UNSPACED, 'u');

/**
 * What a person typed, as search terms (at most 10); only letters, digits and `_` remain, so no syntax can leak
 * in. A word is found by its tokens, the last one a prefix (FTS5, the tsquery). A word with Chinese or Japanese
 * in it is a `run`, found as a substring (ASCII case ignored): FTS5's unicode61 and the Postgres parser read a
 * whole run of those letters as one token, so 苹果 inside 我喜欢吃苹果 would never match a token.
 */
export function queryTerms(q: string): { words: string[]; runs: string[] } {
  const terms = q.match(/[\p{L}\p{N}_]+/gu)?.slice(0, 10) ?? [];
  return {
    words: terms.filter((t) => !HAS_UNSPACED.test(t)),
    runs: terms.filter((t) => HAS_UNSPACED.test(t)),
  };
}

/**
 * The query's words as a tsquery: each word a phrase of its tokens (as search_text() cuts them), the last one a
 * prefix; every word required. Null when there are none (an empty query, or only runs).
 */
export function tsQueryOf(q: string): string | null {
  const phrases = queryTerms(q)
    .words.map((w) => searchText(w).trim().split(/\s+/).filter(Boolean))
    .filter((parts) => parts.length > 0)
    .map((parts) => parts.map((part, i) => `'${part}'${i === parts.length - 1 ? ':*' : ''}`).join(' <-> '));
  return phrases.length ? phrases.map((p) => `(${p})`).join(' & ') : null;
}

/** A token as FTS5's unicode61 sees one: letters, numbers, private use and combining marks. */
const TOKEN = /[\p{L}\p{N}\p{Co}\p{Mn}]+/gu;
/** A token where each Chinese or Japanese letter is one (the snippet of a query with runs). */
const CHARACTER_TOKEN = new RegExp(`${UNSPACED}|(?:(?!${UNSPACED})[\\p{L}\\p{N}\\p{Co}\\p{Mn}])+`, 'gu');
/** A token as it is compared when marking the snippet: folded as search_text() folds it, then lower-cased. */
const key = (token: string) => foldText(token).toLowerCase();

/**
 * The terms of a query as FTS5 phrases: each word's tokens (as search_text() cuts them) in a row, the last one
 * a prefix; each run's tokens as CHARACTER_TOKEN cuts them.
 */
export function queryPhrases(q: string): string[][] {
  const { words, runs } = queryTerms(q);
  return [
    ...words.map((w) => searchText(w).trim().split(/\s+/).filter(Boolean).map(key)),
    ...runs.map((r) => [...searchText(r).matchAll(CHARACTER_TOKEN)].map((m) => key(m[0]))),
  ].filter((p) => p.length > 0);
}

/**
 * The snippet of a message `text` found by the query `q`: FTS5's (ftsSnippet); when the query has runs, each
 * Chinese or Japanese letter counts as a token, and the window is 24 of them (about 12 words).
 */
export function searchSnippet(text: string, q: string): string {
  const perCharacter = queryTerms(q).runs.length > 0;
  return ftsSnippet(text, queryPhrases(q), perCharacter ? 24 : 12, perCharacter ? CHARACTER_TOKEN : TOKEN);
}

/**
 * FTS5's snippet(col, '\u0002', '\u0003', '…', nToken) for `text` and the query's phrases: the window of
 * nToken tokens with the most distinct phrases (then the earliest; a sentence start gets a bonus), centred on
 * its matches, each phrase instance marked, '…' where the text goes on.
 */
export function ftsSnippet(text: string, phrases: string[][], nToken = 12, token = TOKEN): string {
  const tokens = [...text.matchAll(token)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    key: key(m[0]),
  }));
  const n = tokens.length;
  // Phrase instances, in order of position: [token index, phrase index, phrase length].
  const instances: Array<{ at: number; phrase: number; size: number }> = [];
  for (let i = 0; i < n; i++)
    phrases.forEach((phrase, p) => {
      const fits = phrase.every((part, j) => {
        const token = tokens[i + j]?.key;
        return token !== undefined && (j === phrase.length - 1 ? token.startsWith(part) : token === part);
      });
      if (fits) instances.push({ at: i, phrase: p, size: phrase.length });
    });
  // Sentence starts: the first token, and a token after whitespace that follows '.' or ':'.
  const sentences = tokens
    .map((t, i) => ({ t, i }))
    .filter(({ t, i }) => i === 0 || /[.:][ \t\n\r]+$/.test(text.slice(tokens[i - 1]?.end ?? 0, t.start)))
    .map(({ i }) => i);

  const score = (from: number) => {
    const seen = new Set<number>();
    let total = 0;
    let first = -1;
    let last = 0;
    for (const inst of instances) {
      if (inst.at < from || inst.at >= from + nToken) continue;
      total += seen.has(inst.phrase) ? 1 : 1000;
      seen.add(inst.phrase);
      if (first < 0) first = inst.at;
      last = inst.at + inst.size;
    }
    let adjusted = first - Math.trunc((nToken - (last - first)) / 2);
    if (adjusted + nToken > n) adjusted = n - nToken;
    if (adjusted < 0) adjusted = 0;
    return { total, adjusted };
  };
  let best = 0;
  let bestStart = 0;
  for (const inst of instances) {
    const { total, adjusted } = score(inst.at);
    if (total > best) {
      best = total;
      bestStart = adjusted;
    }
    if (sentences.length && n > nToken) {
      let jj = 0;
      while (jj < sentences.length - 1 && (sentences[jj + 1] ?? 0) <= inst.at) jj++;
      const sentence = sentences[jj] ?? 0;
      if (sentence < inst.at) {
        const bonus = score(sentence).total + (sentence === 0 ? 120 : 100);
        if (bonus > best) {
          best = bonus;
          bestStart = sentence;
        }
      }
    }
  }

  const rangeEnd = bestStart + nToken - 1;
  let out = bestStart > 0 ? '…' : '';
  let offset = tokens[bestStart]?.start ?? 0;
  let openUntil = -1;
  for (let i = bestStart; i <= Math.min(rangeEnd, n - 1); i++) {
    const token = tokens[i];
    if (!token) break;
    out += text.slice(offset, token.start);
    offset = token.start;
    const starting = instances.filter((inst) => inst.at === i);
    if (openUntil < i && starting.length) {
      out += '\u0002';
      openUntil = i + Math.max(...starting.map((s) => s.size)) - 1;
    } else if (starting.length)
      openUntil = Math.max(openUntil, i + Math.max(...starting.map((s) => s.size)) - 1);
    out += text.slice(token.start, token.end);
    offset = token.end;
    if (openUntil === i || (openUntil > i && i === rangeEnd)) {
      out += '\u0003';
      openUntil = -1;
    }
  }
  if (rangeEnd >= n - 1) out += text.slice(offset);
  else out += '…';
  return out;
}

/** The SQL function db/migrations-pg defines (written there literally; db/search-pg.test.ts compares). */
export function searchTextFunctionSql(): string {
  return `CREATE FUNCTION "search_text"("t" text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT regexp_replace(regexp_replace(translate(t,
      '${FOLD_FROM}',
      '${FOLD_TO}'),
      '[\\u0300-\\u036f]', '', 'g'),
      '${SEPARATORS_PG}', ' ', 'g')
  $$;`;
}
