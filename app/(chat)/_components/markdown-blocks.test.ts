import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MARKDOWN_PIECE_CHARS, markdownPieces } from './markdown-blocks';
import { toHtmlTree } from './test-markdown-tree';

type Node = { type: string; value?: string; children?: Node[] };
const topLevel = (text: string): Node[] =>
  ((toHtmlTree(text) as Node).children ?? []).filter(
    // The line breaks remark-rehype puts between top-level elements.
    (n) => !(n.type === 'text' && !n.value?.trim()),
  );
const html = (nodes: Node[]) =>
  JSON.stringify(nodes, (key, value) => (key === 'position' ? undefined : value));

/** Cut as often as possible (a piece ends at every place one may), then compare with the whole. */
function assertSameAsWhole(text: string, label = text) {
  const pieces = markdownPieces(text, 1);
  assert.equal(pieces.map((p) => p.text).join('\n'), text, 'the pieces are the text');
  for (const p of pieces)
    assert.equal(text.split('\n')[p.line - 1], p.text.split('\n')[0], 'each piece knows its first line');
  assert.equal(html(pieces.flatMap((p) => topLevel(p.text))), html(topLevel(text)), label);
  return pieces.length;
}

const SAMPLES: Record<string, string> = {
  'short lists between paragraphs': Array.from({ length: 6 }, (_, i) => `- item ${i}\n\npara ${i}`).join(
    '\n\n',
  ),
  'a loose list, its items with paragraphs and code':
    '- one\n\n  more of one\n\n- two\n\n      code in two\n\n* three\n\nafter',
  'ordered lists broken by paragraphs': '1. a\n2. b\n\ntext\n\n3. c\n\n4) d\n\nend',
  'fenced code with blank lines and lines that look like blocks':
    'intro\n\n```python\ndef f():\n\n# not a heading\n\n- not a list\n```\n\nafter\n\n~~~ `info` ~~~\n\nx\n\n~~~~\n~~~\n\nstill code\n~~~~\n\nend',
  'backticks in an info string are no fence': 'a\n\n``` not `a fence\n\nb\n\n```\ncode\n\nc\n```\n\nd',
  'display math over blank lines':
    'Before\n\n$$\na = 1\n\nb = 2\n$$\n\nAfter\n\n$$$\nx\n\n$$\n\ny\n$$$\n\nend',
  'quotes, lazy lines and headings':
    '> quote\nlazy\n\n> other\n\n# Title\n\nSetext\n===\n\n---\n\n***\n\ntext',
  'tables and indented code': '| a | b |\n|---|:-:|\n| 1 | 2 |\n\npara\n\n    code\n\n    more code\n\nend',
  'an unclosed fence runs to the end': 'a\n\n```\ncode\n\nb\n\nc',
  'fences inside list items and quotes': '- item\n\n  ```\n  x\n\n  y\n  ```\n\n> ```\n> q\n\nafter',
};

test('Markdown cut into pieces gives the same HTML as the whole', () => {
  for (const [name, text] of Object.entries(SAMPLES)) assertSameAsWhole(text, name);
  assert.ok(assertSameAsWhole(SAMPLES['short lists between paragraphs'] as string) >= 6, 'it does cut');
});

test('text with definitions for the whole text, an HTML block over blank lines or carriage returns stays whole', () => {
  for (const text of [
    'See [the docs][d].\n\npara\n\n[d]: https://example.com',
    'A note[^1].\n\npara\n\n> [^1]: The note.',
    'a\n\n<!-- a comment\n\nover lines -->\n\nb',
    'a\n\n<pre>\n\nx\n\n</pre>\n\nb',
    'a\r\n\r\n```\r\nx\r\n\r\nb\r\n```\r\n\r\nc',
  ]) {
    assert.equal(markdownPieces(text, 1).length, 1, text);
    assertSameAsWhole(text);
  }
});

test('short text is one piece; long text is cut near the piece size', () => {
  assert.deepEqual(markdownPieces('- a\n\nb'), [{ text: '- a\n\nb', line: 1 }]);
  const long = Array.from({ length: 500 }, (_, i) => `- item ${i}\n\npara ${i}`).join('\n\n');
  const pieces = markdownPieces(long);
  assert.ok(pieces.length > 5);
  for (const p of pieces.slice(0, -1))
    assert.ok(p.text.length >= MARKDOWN_PIECE_CHARS && p.text.length < 2 * MARKDOWN_PIECE_CHARS);
});

test('random Markdown made of every kind of line: the pieces give the same HTML as the whole', () => {
  const LINES = [
    '',
    'para',
    'para',
    'para',
    'text *em',
    'em* and `code',
    '- item',
    '* star',
    '+ plus',
    '-',
    '1. one',
    '2) two',
    '  indented',
    '    four',
    '\ttab',
    '```',
    '```js',
    '``` x`y',
    '~~~',
    '$$',
    '$$$',
    '$$ a$',
    '> quote',
    '>',
    '# heading',
    '===',
    '---',
    '***',
    '| a | b |',
    '|---|---|',
    '<div>',
    '</div>',
    '<!--',
    '-->',
    '- ```',
    '1. $$',
    '  ```',
    ' ~~~',
    '   $$',
    '  code',
    ' one space',
    '- > quote',
    '[x]',
    '\u00a0',
    '\u00a0\u00a0  ',
    // Whole blocks, closed as models write them, with blank lines inside.
    '```\ncode\n\n- not a list\n```',
    '~~~~\n```\n\n~~~~',
    '$$\nx\n\ny\n$$',
    '- item\n\n  ```\n  a\n\n  b\n  ```',
    '1. ```\n   x\n\n   ```',
    '> ```\n> q\n\n> ```',
  ];
  let seed = Number(process.env.FUZZ_SEED ?? 42);
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const documents = Number(process.env.FUZZ_DOCS ?? 2_000);
  let cut = 0;
  for (let doc = 0; doc < documents; doc++) {
    const pick = () => LINES[Math.floor(random() * LINES.length)];
    // Runs of one to four lines, most often between blank lines (where a cut can be).
    const runs = Array.from({ length: 2 + Math.floor(random() * 12) }, () =>
      Array.from({ length: 1 + Math.floor(random() * 4) }, pick).join('\n'),
    );
    const text = runs.reduce((all, run) => `${all}${random() < 0.7 ? '\n\n' : '\n'}${run}`);
    if (assertSameAsWhole(text, `document ${doc}:\n${text}`) > 1) cut++;
  }
  assert.ok(cut > documents / 10, `${cut} of ${documents} documents were cut`);
});
