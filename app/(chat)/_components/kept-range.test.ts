import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withKept } from './kept-range';

const messages = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id }));

test('a kept message far from the window is mounted too, in order, once', () => {
  assert.deepEqual(withKept([3, 4, 5], new Set(['a']), messages), [0, 3, 4, 5]);
  assert.deepEqual(withKept([0, 1], new Set(['f', 'c']), messages), [0, 1, 2, 5]);
  assert.deepEqual(withKept([2, 3], new Set(['c']), messages), [2, 3]);
});

test('nothing kept, or a kept message no longer in the list: the window as it is', () => {
  const range = [1, 2];
  assert.equal(withKept(range, new Set(), messages), range);
  assert.deepEqual(withKept(range, new Set(['gone']), messages), [1, 2]);
});
