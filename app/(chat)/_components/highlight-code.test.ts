import assert from 'node:assert/strict';
import { test } from 'node:test';
import { grammarName, type HastNode, highlightCode, loadGrammar } from './highlight-code';

const classes = (nodes: HastNode[]): string[] =>
  nodes.flatMap((n) => [
    ...(Array.isArray(n.properties?.className) ? n.properties.className.map(String) : []),
    ...classes(n.children ?? []),
  ]);

test('fence languages resolve to a grammar by name or alias, case-insensitively', () => {
  assert.equal(grammarName('python'), 'python');
  assert.equal(grammarName('py'), 'python');
  assert.equal(grammarName('TS'), 'typescript');
  assert.equal(grammarName('c++'), 'cpp');
  assert.equal(grammarName('html'), 'xml');
  assert.equal(grammarName('mermaid'), undefined);
  assert.equal(grammarName('constructor'), undefined);
  assert.equal(grammarName('__proto__'), undefined);
});

test('a grammar highlights only once it is loaded, and loads once', async () => {
  assert.equal(highlightCode('rust', 'fn main() {}'), null);
  const first = loadGrammar('rust');
  assert.equal(loadGrammar('rust'), first);
  await first;
  const tokens = highlightCode('rust', 'fn main() {}');
  assert.ok(tokens);
  assert.ok(classes(tokens).includes('hljs-keyword'));
});

test('HTML brings the grammars it embeds (CSS and JavaScript)', async () => {
  await loadGrammar('xml');
  const tokens = highlightCode('xml', '<script>const a = 1;</script>');
  assert.ok(tokens);
  assert.ok(classes(tokens).includes('hljs-keyword'), 'the script body is highlighted as JavaScript');
});
