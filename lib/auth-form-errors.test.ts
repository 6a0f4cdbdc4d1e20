import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AUTH_FORM_ERRORS, authErrorCode, authFormError, isAuthFormError } from '@/lib/auth-form-errors';
import en from '@/messages/en.json' with { type: 'json' };

test('a form failure is named by its status and code, the same with or without JavaScript', () => {
  assert.equal(authFormError('sign-in', 401), 'credentials');
  assert.equal(authFormError('sign-up', 429), 'rate');
  assert.equal(authFormError('sign-up', 403), 'closed');
  assert.equal(authFormError('sign-in', 403), 'disabled');
  // The library's answer for a taken email (a late sign-up, or the loser of two at once).
  assert.equal(authFormError('sign-up', 422, 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL'), 'taken');
  assert.equal(authFormError('sign-up', 422, 'USER_ALREADY_EXISTS'), 'taken');
  assert.equal(authFormError('sign-up', 422, 'PASSWORD_TOO_SHORT'), 'invalid');
  assert.equal(authFormError('sign-up', 400), 'invalid');
  assert.equal(authFormError('sign-in', 500), 'failed');
  assert.equal(authErrorCode({ code: 'USER_ALREADY_EXISTS', message: 'x' }), 'USER_ALREADY_EXISTS');
  assert.equal(authErrorCode({ error: { code: 'forbidden', message: 'x' } }), 'forbidden');
  assert.equal(authErrorCode(null), undefined);
});

test('every code has its words in the catalog, and a code from the URL is only ever one of them', () => {
  for (const code of AUTH_FORM_ERRORS) assert.ok(en.auth.errors[code], code);
  assert.equal(isAuthFormError('taken'), true);
  assert.equal(isAuthFormError('toString'), false);
  assert.equal(isAuthFormError('<b>hi</b>'), false);
});
