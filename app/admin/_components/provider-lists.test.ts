import assert from 'node:assert/strict';
import { test } from 'node:test';
import { list, modelAllowText, parseModelAllow } from './provider-lists';

test('a comma-separated list: trimmed, empty entries dropped', () => {
  assert.deepEqual(list(' *, admin ,, bob@example.com '), ['*', 'admin', 'bob@example.com']);
  assert.deepEqual(list(''), []);
});

test('per-model access: one `model: who` line each, read back as written; a line without a model is its number', () => {
  const text = 'gpt-4o: admin, bob@example.com\nllama:3: *';
  const parsed = parseModelAllow(`${text}\n\n`);
  assert.deepEqual(parsed, { value: { 'gpt-4o': ['admin', 'bob@example.com'], 'llama:3': ['*'] } });
  assert.equal('value' in parsed && modelAllowText(parsed.value), text);
  assert.deepEqual(parseModelAllow('gpt-4o: admin\nno colon here'), { line: 2 });
  assert.deepEqual(parseModelAllow(': admin'), { line: 1 });
});
