import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineDiff } from '@/lib/text-diff';

const show = (before: string, after: string) => lineDiff(before, after).map((l) => `${l.kind}${l.text}`);

test('a line diff keeps common lines and marks removed and added ones in order', () => {
  assert.deepEqual(show('a\nb\nc', 'a\nB\nc\nd'), [' a', '-b', '+B', ' c', '+d']);
  assert.deepEqual(show('same', 'same'), [' same']);
  assert.deepEqual(show('', 'new'), ['-', '+new']);
});

test('a last line that gains a successor is not shown as changed', () => {
  assert.deepEqual(show('{\n  "a": 1\n}', '{\n  "a": 1\n}\nx'), [' {', '   "a": 1', ' }', '+x']);
});

test('long texts diff without a quadratic table (5,000 lines each)', () => {
  const a = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
  const b = a.replace('line 2500', 'changed');
  const lines = lineDiff(a, b);
  assert.equal(lines.filter((l) => l.kind !== ' ').length, 2);
});
