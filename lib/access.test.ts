import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAllowed } from '@/lib/access';

const alice = { id: 'a', email: 'Alice@Example.com', role: 'user' };
const root = { id: 'r', email: 'root@example.com', role: 'admin' };

test('allow lists admit everyone, a role or an email, and nobody else', () => {
  assert.equal(isAllowed(['*'], alice), true);
  assert.equal(isAllowed(['user'], alice), true);
  assert.equal(isAllowed(['user'], root), false, 'a role entry is that role only');
  assert.equal(isAllowed(['admin'], root), true);
  assert.equal(isAllowed(['alice@example.COM'], alice), true, 'emails compare without case');
  assert.equal(isAllowed(['bob@example.com'], alice), false);
  assert.equal(isAllowed([], root), false, 'an empty list admits no one');
});
