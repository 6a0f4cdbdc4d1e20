import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeMath } from './math-delimiters';

test('prices are text: a $ before a digit or space opens nothing, a $ after a space closes nothing', () => {
  assert.equal(normalizeMath('I paid $5 and $10'), 'I paid $5 and $10');
  assert.equal(normalizeMath('from $ 3 to $ 4'), 'from $ 3 to $ 4');
  assert.equal(normalizeMath('costs $x and then $'), 'costs $x and then $');
  assert.equal(normalizeMath('between $a $ and b'), 'between $a $ and b');
  assert.equal(normalizeMath('$5, or $x$ per unit'), '$5, or $$x$$ per unit');
});

test('inline $…$ and \\(…\\) become $$ text math; a formula never spans lines', () => {
  assert.equal(normalizeMath('so $E=mc^2$ holds'), 'so $$E=mc^2$$ holds');
  assert.equal(normalizeMath('so \\( a+b \\) holds'), 'so $$a+b$$ holds');
  assert.equal(normalizeMath('$a\nb$'), '$a\nb$');
  assert.equal(normalizeMath('$x$5'), '$x$5');
});

test('an escaped \\$ stays as written and never opens or closes math', () => {
  assert.equal(normalizeMath('\\$5 and \\$x\\$'), '\\$5 and \\$x\\$');
  assert.equal(normalizeMath('$a \\$ b$'), '$$a \\$ b$$');
  assert.equal(normalizeMath('a \\\\(b\\)'), 'a \\\\(b\\)');
});

test('\\[…\\] and $$…$$ on their own lines become math blocks, inside a line display-style text math', () => {
  assert.equal(normalizeMath('Answer:\n\\[ x^2 \\]\ndone'), 'Answer:\n$$\nx^2\n$$\ndone');
  assert.equal(normalizeMath('\\[\n\\frac{a}{b}\n\\]'), '$$\n\\frac{a}{b}\n$$');
  assert.equal(normalizeMath('$$ \\frac{a}{b} $$'), '$$\n\\frac{a}{b}\n$$');
  assert.equal(normalizeMath('> \\[ y \\]'), '> $$\n> y\n> $$');
  assert.equal(normalizeMath('so \\[ y \\] is'), 'so $$\\displaystyle y$$ is');
  assert.equal(normalizeMath('\\[ a \\\\ b \\]'), '$$\na \\\\ b\n$$');
});

test('inline code and fenced code are copied untouched', () => {
  assert.equal(normalizeMath('run `echo $HOME$` now'), 'run `echo $HOME$` now');
  assert.equal(normalizeMath('``a ` $x$ ``'), '``a ` $x$ ``');
  const fenced = '```sh\necho $a$ $$b$$ \\[c\\]\n```\nthen $d$';
  assert.equal(normalizeMath(fenced), '```sh\necho $a$ $$b$$ \\[c\\]\n```\nthen $$d$$');
  assert.equal(normalizeMath('~~~\n$x$\n~~~'), '~~~\n$x$\n~~~');
  // A fence still streaming in: everything after it is code.
  assert.equal(normalizeMath('```py\nprint("$x$")'), '```py\nprint("$x$")');
});

test('while streaming, an unclosed formula stays text', () => {
  assert.equal(normalizeMath('$$\n\\frac{a'), '\\$\\$\n\\frac{a');
  assert.equal(normalizeMath('so $$x^'), 'so \\$\\$x^');
  assert.equal(normalizeMath('\\[ x^2 +'), '\\[ x^2 +');
  assert.equal(normalizeMath('and $E=m'), 'and $E=m');
  assert.equal(normalizeMath('\\[ \\]'), '\\[ \\]');
});
