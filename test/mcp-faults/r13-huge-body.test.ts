import assert from 'node:assert/strict';
import type http from 'node:http';
import { test } from 'node:test';
import { jsonMcpServer } from '@/test/mcp-faults/json-server';
import { connectionOf, newPool, remote, text, tester } from '@/test/mcp-faults/harness';
import { McpFailure } from '@/lib/mcp/errors';

// A remote server answers a tools/call with a JSON body that never ends (here 200 MB, then held open).
// stdio messages are capped (64 MB); over HTTP the SDK read the whole body (response.json()) until the
// call timed out: one server could fill the host's memory and end it for every user. The body is cut
// at the cap: the call fails saying so, the server sees the request let go, and the connection stays.

const MB = 1024 * 1024;
const TOTAL = 200 * MB;
let written = 0;
let letGo: () => void = () => {};
const abandoned = new Promise<void>((resolve) => {
  letGo = resolve;
});

async function flood(res: http.ServerResponse, id: unknown): Promise<void> {
  res.on('close', () => letGo());
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`);
  const chunk = Buffer.alloc(MB, 'A');
  while (written < TOTAL && !res.destroyed) {
    written += chunk.length;
    if (!res.write(chunk))
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done).off('close', done);
          resolve();
        };
        res.on('drain', done).on('close', done);
      });
  }
  // then nothing more, and the response never ends
}

const url = await jsonMcpServer('huge', { slow: 'huge', quick: 'small' }, (res, id) => void flood(res, id));

test('R13 a remote server whose answer never ends: the body is cut at the cap, the call fails saying so, the connection stays', async () => {
  const pool = newPool([remote('huge', url, 20_000)]);
  await assert.rejects(
    pool.forUser(tester).callTool('huge', 'huge', {}),
    (err) => err instanceof McpFailure && /larger than 64 MB/.test(err.message),
  );
  await abandoned;
  assert.ok(written < TOTAL, `the host let go of the answer after ${written / MB} MB`);
  assert.equal(text(await pool.forUser(tester).callTool('huge', 'small', {})), 'small');
  assert.equal(connectionOf(pool, 'huge').status().status, 'connected');
  await pool.closeAll();
});
