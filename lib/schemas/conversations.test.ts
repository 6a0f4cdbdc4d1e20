import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RenameSchema } from '@/lib/schemas/conversations';
import { titleFrom } from '@/lib/title';

describe('titles', () => {
  test('come from the first message, folded and capped at 80 characters', () => {
    assert.equal(titleFrom('  Hello\n\nworld  '), 'Hello world');
    assert.equal(titleFrom('x'.repeat(200)).length, 80);
    assert.equal(titleFrom('   '), 'New chat');
  });
  test('rename needs a non-empty title', () => {
    assert.equal(RenameSchema.safeParse({ title: '  ' }).success, false);
    assert.equal(RenameSchema.safeParse({ title: 'ok' }).success, true);
  });
});
