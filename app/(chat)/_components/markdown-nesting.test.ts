import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bracketNesting,
  emphasisNesting,
  lineContainers,
  MAX_MARKDOWN_NESTING,
  nestsTooDeepForMarkdown,
} from './markdown-nesting';
import { toHtmlTree } from './test-markdown-tree';

/** Text nested `n` deep, each way Markdown nests. */
const NESTED: Record<string, (n: number) => string> = {
  quotes: (n) => `${'>'.repeat(n)} x`,
  'spaced quotes': (n) => `${'> '.repeat(n)}x`,
  'list items on one line': (n) => `${'- '.repeat(n)}x`,
  'ordered items': (n) => `${'1. '.repeat(n)}x`,
  'mixed containers': (n) =>
    `intro\n\n${Array.from({ length: n }, (_, i) => ['>', '*', '2)'][i % 3]).join(' ')} x\n\nafter`,
  'images in links': (n) =>
    `${Array.from({ length: n }, (_, i) => (i % 2 ? '![' : '[')).join('')}x${'](u)'.repeat(n)}`,
  'links in links': (n) => `${'['.repeat(n)}x${'](u)'.repeat(n)}`,
  'strong emphasis': (n) => `${'**'.repeat(n)}x${'**'.repeat(n)}`,
  'emphasis, one level a word': (n) => `${'_a '.repeat(2 * n)}x${' a_'.repeat(2 * n)}`,
};

test('text nesting deeper than the limit is shown as written, never parsed; at the limit it is drawn', () => {
  for (const [name, nested] of Object.entries(NESTED)) {
    assert.equal(nestsTooDeepForMarkdown(nested(MAX_MARKDOWN_NESTING + 1)), true, name);
    assert.equal(nestsTooDeepForMarkdown(nested(MAX_MARKDOWN_NESTING)), false, name);
  }
  assert.equal(lineContainers('   > - 10. + * x'), 5);
  assert.equal(bracketNesting('[a [b [c](u)](v)](w) [d]'), 3);
  assert.equal(emphasisNesting('**bold _and* it_** then *args and a*b*c'), 3);
});

test('Markdown as people and models write it is drawn', () => {
  const indentedList = Array.from({ length: 12 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n');
  const samples = [
    indentedList,
    '> > > a reply to a reply to a reply',
    '| a | b |\n|---|---|\n| [x](https://e.x) | ![i](https://e.x/i.png) |',
    '```json\n[[[[[[1, [2, [3]]]]]]]]\n```',
    '- - -\n\n***\n\n___',
    `${'*'.repeat(80)}\n\n${'-'.repeat(80)}`,
    // Brackets left open, or escaped, do not nest anything.
    `${'[ '.repeat(200)}text`,
    `${'\\['.repeat(200)}x${'\\]'.repeat(200)}`,
    // Links nest across paragraphs no deeper than within one.
    Array.from({ length: 100 }, () => '[![a](https://e.x/a.png)](https://e.x)').join('\n\n'),
    'Prices: $5 and $10. Math: $$x^2$$. Items: 1) one 2) two.',
    // Emphasis opened and never closed (code, snake_case) nests nothing.
    `def f(${'*args, **kwargs, _private, '.repeat(100)}): ...`,
  ];
  for (const text of samples) assert.equal(nestsTooDeepForMarkdown(text), false, text.slice(0, 40));
});

test('the Markdown steps draw text nested as deep as the limit; thousands deep they overflow the stack', () => {
  for (const [name, nested] of Object.entries(NESTED))
    assert.doesNotThrow(() => toHtmlTree(nested(MAX_MARKDOWN_NESTING)), name);
  // 5 KB of model output: why the limit exists (the page showed "This page couldn't load").
  assert.throws(() => toHtmlTree(NESTED.quotes!(5000)), RangeError);
});
