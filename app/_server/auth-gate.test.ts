import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '@/lib/errors';
import { handleAuthRequest } from './auth-gate';

// The auth library serves far more than the app uses; everything else must not be reachable.
const CLOSED = [
  ['GET', '/list-sessions'],
  ['POST', '/revoke-session'],
  ['POST', '/revoke-sessions'],
  ['POST', '/delete-user'],
  ['GET', '/delete-user/callback?token=x'],
  ['POST', '/verify-password'],
  ['POST', '/request-password-reset'],
  ['POST', '/reset-password'],
  ['GET', '/list-accounts'],
  ['POST', '/unlink-account'],
  ['GET', '/callback/github'],
  ['POST', '/oauth2/link'],
  ['POST', '/change-email'],
  ['POST', '/update-session'],
  ['GET', '/Get-Session'],
  ['GET', '/get-session/'],
] as const;

test('the auth library endpoints the app does not use answer 404 before the library sees them', async () => {
  for (const [method, path] of CLOSED) {
    const req = new Request(`http://127.0.0.1:3000/api/auth${path}`, {
      method,
      headers: { origin: 'http://127.0.0.1:3000', 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: '{}' } : {}),
    });
    await assert.rejects(
      handleAuthRequest(req),
      (err: unknown) => err instanceof AppError && err.code === 'not_found',
      `${method} ${path}`,
    );
  }
});

test('a name or email holding NUL is refused with a 400 naming the field, before the library stores it', async () => {
  for (const body of [{ name: 'Ann\u0000' }, { image: 'x\u0000' }, { email: 'a\u0000@example.com' }]) {
    const req = new Request('http://127.0.0.1:3000/api/auth/update-user', {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:3000', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await assert.rejects(
      handleAuthRequest(req),
      (err: unknown) =>
        err instanceof AppError &&
        err.code === 'bad_request' &&
        err.fields?.[Object.keys(body)[0] as string] === 'must not contain the NUL character (U+0000)',
    );
  }
});
