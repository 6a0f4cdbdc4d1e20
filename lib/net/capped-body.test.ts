import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BodyTooLargeError, cappedBodies } from './capped-body';

/** A fetch answering with these chunks, of this content type. */
const answering = (type: string, chunks: string[]) =>
  cappedBodies(
    (async () =>
      new Response(
        new ReadableStream({
          start(c) {
            for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
            c.close();
          },
        }),
        { headers: { 'content-type': type } },
      )) as typeof fetch,
    16,
  );

test('an event stream may go on for ever; each event is bounded, whichever line ends end it', async () => {
  const ok = ['data: 0123456\n\n', 'data: 0123456\r\n', '\r\ndata: 012345', '6\r\r', 'data: 0123456\n', '\n'];
  const res = await answering('text/event-stream', ok)('http://x');
  assert.equal((await res.text()).length, ok.join('').length);
  const tooLong = await answering('text/event-stream', [
    'data: 0123456\n\n',
    'data: 01234567',
    '89ABCDEF\n\n',
  ])('x');
  await assert.rejects(tooLong.text(), (err: unknown) => {
    const cause = err instanceof BodyTooLargeError ? err : (err as { cause?: unknown }).cause;
    return cause instanceof BodyTooLargeError || /larger than/.test(String(err));
  });
});

test('any other body is bounded as a whole', async () => {
  assert.equal(
    await (await answering('application/json', ['"0123456', '789012"'])('x')).json(),
    '0123456789012',
  );
  await assert.rejects(
    (await answering('application/json', ['"0123456', '78901234"'])('x')).json(),
    /larger than/,
  );
});
