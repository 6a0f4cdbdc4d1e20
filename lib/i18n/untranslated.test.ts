/**
 * No user-visible English left in the UI's source (.tsx files under app/); these must come from the message
 * catalogs (next-intl `t()`), so both languages are complete:
 * - JSX text;
 * - string and template literals (Fill in ${name} between backquotes) in attributes people read or hear (`aria-label`,
 *   `title`, `placeholder`, `alt`, `label`), in props of our own components (`submit="Insert"`) other
 *   than NOT_TEXT_PROPS, and in JSX expressions, also as a branch (`{busy ? 'Loading…' : 'Load more'}`,
 *   `{preview ?? 'Fill in every field.'}`);
 * - the same given to a message setter (setError with `Required: ${names}`);
 * - `export const metadata`'s title and description (use `generateMetadata` with `getTranslations`).
 *
 * Files still to be converted are listed in PENDING; an entry that no longer has such a string fails too,
 * so the list only shrinks.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseSync } from '@swc/core';

const READ_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'aria-placeholder',
  'title',
  'placeholder',
  'alt',
  'label',
]);
/**
 * Props of our own components (JSX names starting with an uppercase letter) that are not text a person
 * reads: every other prop given a string is taken as text (`submit="Insert"`, `heading="…"`).
 */
const NOT_TEXT_PROPS = [
  /^key$/, // React's list key
  /Key$/, // storage and draft keys: `draftKey`
  /^ref$/,
  /className$/i, // CSS classes: `className`, `panelClassName`
  /^style$/,
  /^(id|name)$/, // element ids and form field names
  /Id$/, // `htmlFor`-like ids: `labelId`, `formId`
  /^(htmlFor|form)$/,
  /^(type|variant|size|tone|kind|mode|as|side|align|placement|orientation|role)$/, // enumerations
  /^(href|src|action|method|target|rel)$/, // links and form targets
  /(Url|Uri|Href|Path)$/i, // `url`, `imageUrl`, `serverUri`, `redirectPath`
  /^(lang|locale|language|dir)$/, // language codes, text direction
  /^(autoComplete|inputMode|pattern|accept|encType)$/, // input hints read by the browser
  /^(value|defaultValue)$/, // the machine value of a choice
  /^data-/, // data attributes (tests, state)
  /^aria-/, // ARIA states and tokens (`aria-current="page"`); the ones read out are in READ_ATTRIBUTES
  /^(testId|namespace)$/,
];
const isTextProp = (name: string) => !NOT_TEXT_PROPS.some((re) => re.test(name));
/** Setters whose argument is shown to the user as is: `setError('…')`, `setStatus(`…`)`. */
const MESSAGE_SETTER = /^set(Error|Status|Notice|Message|Warning|Info)/;
/** Keys of `export const metadata` read by people (tab title, link previews). */
const METADATA_TEXT = new Set(['title', 'description']);
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
  /** A literal's fixed text; a template's expressions count as "0" (no letters: `${a}${b}` is no word). */
  const textOf = (n: Node): string =>
    n.type === 'StringLiteral'
      ? String(n.value)
      : (n.quasis as Node[]).map((q) => String(q.cooked ?? q.raw ?? '')).join('0');
  const check = (n: Node) => {
    const shownAs =
      n.type === 'StringLiteral' ? textOf(n) : (n.quasis as Node[]).map((q) => q.raw).join('$…');
    if (readable(textOf(n))) report(n, shownAs);
  };
  const args = (list: unknown) => (list as { expression: Node }[]).map((a) => a?.expression);
  /**
   * The literals an expression can evaluate to and show: itself, both branches of `a ? 'x' : 'y'`, the
   * sides of `??`, `||`, `+`, the value of `a && 'x'`, a template's own parts, what `.map(x => …)`
   * returns. Not a call's arguments (`t('key')`, `cn('…')`) nor a comparison (`a === 'x'`).
   */
  const literals = (value: unknown): Node[] => {
    if (!value || typeof value !== 'object') return [];
    const n = value as Node;
    switch (n.type) {
      case 'StringLiteral':
        return [n];
      case 'TemplateLiteral':
        return [n, ...(n.expressions as Node[]).flatMap(literals)];
      case 'ConditionalExpression':
        return [n.consequent, n.alternate].flatMap(literals);
      case 'BinaryExpression':
        if (n.operator === '&&') return literals(n.right);
        return ['||', '??', '+'].includes(String(n.operator)) ? [n.left, n.right].flatMap(literals) : [];
      case 'ParenthesisExpression':
      case 'TsAsExpression':
      case 'TsSatisfiesExpression':
      case 'TsNonNullExpression':
        return literals(n.expression);
      case 'ArrayExpression':
        return args(n.elements).flatMap(literals);
      case 'ArrowFunctionExpression':
        return (n.body as Node).type === 'BlockStatement' ? [] : literals(n.body);
      case 'CallExpression': {
        const callee = n.callee as Node;
        const method = callee.type === 'MemberExpression' ? (callee.property as Node) : undefined;
        return method?.type === 'Identifier' && method.value === 'map'
          ? args(n.arguments).flatMap(literals)
          : [];
      }
      default:
        return [];
    }
  };
  const shown = (value: unknown) => {
    for (const n of literals(value)) check(n);
  };
  /** The element a JSX attribute belongs to is one of ours (`<DialogActions>`, `<Form.Field>`), not HTML. */
  const ownComponent = (name: Node): boolean =>
    name.type === 'JSXMemberExpression'
      ? ownComponent(name.object as Node)
      : name.type === 'Identifier' && /^[A-Z]/.test(String(name.value));
  const visit = (value: unknown, element?: Node): void => {
    if (Array.isArray(value)) {
      for (const v of value) visit(v, element);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    if (node.type === 'JSXOpeningElement') element = node;
    if (node.type === 'JSXText' && readable(String(node.value))) report(node, String(node.value));
    else if (node.type === 'JSXAttribute') {
      const name = node.name as Node;
      const attr = name?.type === 'Identifier' ? String(name.value) : '';
      const ours = element ? ownComponent(element.name as Node) : false;
      const init = node.value as Node | null;
      if (READ_ATTRIBUTES.has(attr) || (ours && isTextProp(attr))) {
        shown(init?.type === 'JSXExpressionContainer' ? init.expression : init);
      }
      // The attribute's own value is checked; JSX inside it (`icon={<X label="…" />}`) is visited below.
      if (init?.type === 'JSXExpressionContainer') visit(init.expression);
      return;
    } else if (node.type === 'JSXExpressionContainer') shown(node.expression);
    else if (node.type === 'CallExpression') {
      const callee = node.callee as Node;
      if (callee.type === 'Identifier' && MESSAGE_SETTER.test(String(callee.value)))
        for (const a of args(node.arguments)) shown(a);
    } else if (node.type === 'VariableDeclarator') {
      const id = node.id as Node;
      const init = node.init as Node | null;
      if (id.type === 'Identifier' && id.value === 'metadata' && init?.type === 'ObjectExpression')
        for (const p of init.properties as Node[]) {
          const key = p.key as Node | undefined;
          if (
            p.type === 'KeyValueProperty' &&
            key?.type === 'Identifier' &&
            METADATA_TEXT.has(String(key.value))
          )
            shown(p.value);
        }
    }
    for (const key in node) if (key !== 'span') visit(node[key], element);
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
