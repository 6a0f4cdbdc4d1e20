import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
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

const json = (res: http.ServerResponse, id: unknown, result: unknown) =>
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id, result }));

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

/** A minimal Streamable HTTP MCP server (JSON answers, no session) with a tool whose answer never ends. */
const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const msg = JSON.parse(body);
    if (msg.id === undefined) return void res.writeHead(202).end();
    if (msg.method === 'initialize')
      return json(res, msg.id, {
        protocolVersion: msg.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'huge', version: '1.0.0' },
      });
    if (msg.method === 'tools/list')
      return json(res, msg.id, {
        tools: ['huge', 'small'].map((name) => ({ name, inputSchema: { type: 'object' } })),
      });
    if (msg.method === 'tools/call' && msg.params.name === 'huge') return void flood(res, msg.id);
    if (msg.method === 'tools/call') return json(res, msg.id, { content: [{ type: 'text', text: 'small' }] });
    json(res, msg.id, {});
  });
});
const url = await new Promise<string>((resolve) =>
  server.listen(0, '127.0.0.1', () =>
    resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
  ),
);
after(() => {
  server.closeAllConnections();
  server.close();
});

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
