import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerError, HttpStatusError } from './request-errors';

test('answerError takes the API’s own message, with the status', async () => {
  const res = Response.json({ error: { code: 'conflict', message: 'Already there.' } }, { status: 409 });
  const err = await answerError(res);
  assert.equal(err.message, 'Already there.');
  assert.equal(err.status, 409);
  assert.equal(err.bare, false);
});

test('an answer without the API’s JSON error (a proxy’s page, a non-text message) is bare: only its status', async () => {
  for (const res of [
    new Response('<h1>502 Bad Gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }),
    Response.json({ error: { message: { nested: true } } }, { status: 500 }),
    new Response(null, { status: 503 }),
  ]) {
    const err = await answerError(res);
    assert.ok(err instanceof HttpStatusError);
    assert.equal(err.bare, true, `HTTP ${res.status}`);
    assert.equal(err.message, `The server answered HTTP ${res.status}.`);
  }
});
