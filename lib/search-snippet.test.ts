import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitSnippet } from '@/lib/search-snippet';

test('matches between \\u0002 and \\u0003 become marked segments', () => {
  assert.deepEqual(splitSnippet('…the zebra-\u0002quokka\u0003-77 lives \u0002here\u0003'), [
    { text: '…the zebra-', match: false },
    { text: 'quokka', match: true },
    { text: '-77 lives ', match: false },
    { text: 'here', match: true },
  ]);
});

test('plain text, empty input and markup-looking text stay text', () => {
  assert.deepEqual(splitSnippet('just a title'), [{ text: 'just a title', match: false }]);
  assert.deepEqual(splitSnippet(''), []);
  assert.deepEqual(splitSnippet('<img onerror=x> \u0002<b>\u0003'), [
    { text: '<img onerror=x> ', match: false },
    { text: '<b>', match: true },
  ]);
});

test('unbalanced or adjacent markers never leak into the text', () => {
  assert.deepEqual(splitSnippet('a\u0002b'), [
    { text: 'a', match: false },
    { text: 'b', match: true },
  ]);
  assert.deepEqual(splitSnippet('\u0003a\u0002\u0003b\u0002c\u0003\u0002d\u0003'), [
    { text: 'ab', match: false },
    { text: 'cd', match: true },
  ]);
});
