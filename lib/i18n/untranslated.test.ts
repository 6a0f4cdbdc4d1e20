/**
 * No user-visible English left in the UI's source: JSX text, string attributes people read or hear
 * (`aria-label`, `title`, `placeholder`, `alt`, `label`) and string literals placed in JSX must come from
 * the message catalogs (next-intl `t()`), so both languages are complete.
 *
 * Files still to be converted are listed in PENDING; an entry that no longer has such a string fails too,
 * so the list only shrinks.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseSync } from '@swc/core';

const READ_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'title', 'placeholder', 'alt', 'label']);
const WORDS = /\p{L}{2,}/u;
/** Syntax shown as is in both languages: `/server:prompt`, `@name`, an example URI `file:///srv/docs`. */
const CODE_LIKE = /^\s*([/@][\w:./-]*|[a-z][\w+.-]*:\/\/\S*)\s*$/i;
const readable = (text: string) => WORDS.test(text) && !CODE_LIKE.test(text);

/** Source files (app/, .tsx) whose strings are still English only. */
const PENDING: string[] = JSON.parse(readFileSync('lib/i18n/pending.json', 'utf8'));

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsxFiles(p);
    return e.name.endsWith('.tsx') ? [p] : [];
  });
}

type Node = { type?: string; span?: { start: number }; [key: string]: unknown };

/** The untranslated strings of one file, as `line: text` (parsed with SWC, the compiler Next uses). */
function literalStrings(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const module = parseSync(code, { syntax: 'typescript', tsx: true }) as unknown as Node;
  // SWC spans are byte offsets that keep counting across parses: relative to this module's start.
  const bytes = Buffer.from(code);
  const base = (module.span?.start ?? 1) - 1;
  const lineOf = (node: Node) =>
    bytes
      .subarray(0, (node.span?.start ?? base) - base)
      .toString('utf8')
      .split('\n').length;
  const found: string[] = [];
  const report = (node: Node, text: string) => found.push(`${lineOf(node)}: ${text.trim().slice(0, 60)}`);
  const isText = (n: unknown): n is Node & { value: string } =>
    !!n &&
    typeof n === 'object' &&
    ((n as Node).type === 'StringLiteral' || (n as Node).type === 'TemplateLiteral');
  const textOf = (n: Node): string =>
    n.type === 'StringLiteral'
      ? String(n.value)
      : (n.expressions as unknown[]).length === 0
        ? String(((n.quasis as Node[])[0]?.cooked as string) ?? '')
        : '';
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    if (node.type === 'JSXText' && readable(String(node.value))) report(node, String(node.value));
    else if (node.type === 'JSXAttribute') {
      const name = node.name as Node;
      const attr = name?.type === 'Identifier' ? String(name.value) : '';
      const init = node.value as Node | null;
      if (READ_ATTRIBUTES.has(attr) && isText(init) && readable(textOf(init))) report(node, textOf(init));
    } else if (node.type === 'JSXExpressionContainer') {
      const e = node.expression as Node;
      if (isText(e) && readable(textOf(e))) report(node, textOf(e));
    }
    for (const key in node) if (key !== 'span') visit(node[key]);
  };
  visit(module);
  return found;
}

const files = tsxFiles('app').sort();

test('UI source outside PENDING has no untranslated strings', () => {
  const problems = files
    .filter((f) => !PENDING.includes(f))
    .flatMap((f) => literalStrings(f).map((s) => `${f}:${s}`));
  assert.deepEqual(
    problems,
    [],
    'use t() from next-intl with a key in messages/en.json and messages/zh-CN.json',
  );
});

test('PENDING lists only files that exist and still need converting', () => {
  const stale = PENDING.filter((f) => !files.includes(f) || literalStrings(f).length === 0);
  assert.deepEqual(stale, [], 'remove these from lib/i18n/pending.json');
});
