import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownAfterHydration } from './markdown-budget';

const answer = (id: string, length: number) => ({
  id,
  role: 'assistant',
  parts: [{ type: 'text', text: 'x'.repeat(length) }],
});
const question = (id: string, length: number) => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text: 'q'.repeat(length) }],
});

test('the newest answers are drawn by the server up to the page budget; older ones and long ones wait', () => {
  const page = [
    answer('a1', 5_000),
    question('q2', 50_000),
    answer('a2', 9_000),
    answer('a3', 6_000),
    answer('a4', 7_000),
    answer('a5', 8_000),
  ];
  // Newest first: a5, a4 and a3 fit (21,000); a2 is longer than one answer may be; a1 would pass the
  // page's 24,000. Questions are never Markdown and count nothing.
  assert.deepEqual([...markdownAfterHydration(page, 8_000, 24_000)].sort(), ['a1', 'a2']);
  assert.deepEqual([...markdownAfterHydration(page, 8_000, 15_000)].sort(), ['a1', 'a2', 'a3']);
  assert.deepEqual([...markdownAfterHydration([answer('short', 100)])], []);
});
