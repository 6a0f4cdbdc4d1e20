import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeMath } from './math-delimiters';
import { prepareStreamingMarkdown } from './streaming-markdown';

const prep = (s: string) => prepareStreamingMarkdown(normalizeMath(s));

test('complete Markdown is left as written', () => {
  const text = 'Hi **there**, `code` and [a link](https://example.com).\n\n```js\nconst a = 1;\n```\n';
  assert.deepEqual(prep(text), { text, openFenceLine: null });
});

test('an unfinished fence is closed and its line reported', () => {
  assert.deepEqual(prep('Look:\n```mermaid\ngraph TD\n  A-->B'), {
    text: 'Look:\n```mermaid\ngraph TD\n  A-->B\n```',
    openFenceLine: 2,
  });
  // Only the opener so far; a trailing newline is not doubled.
  assert.deepEqual(prep('```python\n'), { text: '```python\n```', openFenceLine: 1 });
  // A longer fence or a tilde fence closes with the same marker.
  assert.deepEqual(prep('~~~~\nx'), { text: '~~~~\nx\n~~~~', openFenceLine: 1 });
});

test('a closed fence, then an unfinished one: only the last is open', () => {
  const r = prep('```js\na\n```\n\ntext\n\n```mermaid\ngraph LR');
  assert.equal(r.openFenceLine, 7);
  assert.ok(r.text.endsWith('graph LR\n```'));
});

test('a shorter or different marker inside a fence does not close it', () => {
  const r = prep('````md\n```js\nx\n```\nstill inside');
  assert.equal(r.openFenceLine, 1);
  assert.ok(r.text.endsWith('still inside\n````'));
  assert.equal(prep('~~~\n```\n').openFenceLine, 1);
  // A closing fence with text after it is not a closing fence.
  assert.equal(prep('```\ncode\n``` not a close').openFenceLine, 1);
});

test('a fence inside a quote or a list item closes inside it', () => {
  assert.equal(prep('> ```js\n> let a').text, '> ```js\n> let a\n> ```');
  assert.equal(prep('- item\n- ```js\n  let a').text, '- item\n- ```js\n  let a\n  ```');
});

test('inline code with a backtick fence-like run is not a fence', () => {
  assert.equal(prep('Use ```a``` here').openFenceLine, null);
});

test('unfinished inline markers are closed', () => {
  assert.equal(prep('This is **bold').text, 'This is **bold**');
  assert.equal(prep('Use `npm i').text, 'Use `npm i`');
  assert.equal(prep('~~gone').text, '~~gone~~');
});

test('an unfinished link shows its text and points nowhere real', () => {
  const { text } = prep('See [the docs](https://exam');
  assert.match(text, /^See \[the docs\]\(/);
  assert.doesNotMatch(text, /https:\/\/exam/);
});

test('an unfinished image never points at its half-written URL', () => {
  assert.doesNotMatch(prep('![cat](https://evil.example/c').text, /evil\.example/);
});

test('a half-written formula stays text (no $$ added)', () => {
  const { text } = prep('Almost: $$ \\frac{1}{ and \\[ x^');
  assert.equal(text.match(/(?<!\\)\$\$/g), null);
  assert.ok(text.includes('\\frac{1}{'));
});

test('markers inside an unfinished fence are not touched', () => {
  assert.deepEqual(prep('```py\nprint("**")'), { text: '```py\nprint("**")\n```', openFenceLine: 1 });
});

test('finished text is left exactly as written', () => {
  for (const text of ['2**10 = 1024', 'glob *.ts', 'Use `a and', '```mermaid\ngraph TD', '[a](https://x'])
    assert.deepEqual(prepareStreamingMarkdown(normalizeMath(text), false), { text, openFenceLine: null });
});

test('while streaming, a lone marker is closed (and reverts once the answer is finished)', () => {
  assert.equal(prep('2**10 = 1024').text, '2**10 = 1024**');
});
