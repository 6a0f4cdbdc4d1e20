import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { isFailure, newPool, remote, text, tester } from '@/test/mcp-faults/harness';

// A remote server answers a tools/call by trickling its response (a space every 100 ms, never done).
// The call times out and the SDK sends notifications/cancelled, but it went on reading the response:
// the connection, and what had arrived, stayed for as long as the server liked — one more each call.
// The POST of a cancelled request is now let go.

let closed = 0;
let onClosed: () => void = () => {};
const json = (res: http.ServerResponse, id: unknown, result: unknown) =>
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id, result }));

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
        serverInfo: { name: 'trickle', version: '1.0.0' },
      });
    if (msg.method === 'tools/list')
      return json(res, msg.id, {
        tools: ['trickle', 'quick'].map((name) => ({ name, inputSchema: { type: 'object' } })),
      });
    if (msg.method === 'tools/call' && msg.params.name === 'trickle') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 100);
      res.on('close', () => {
        clearInterval(drip);
        closed++;
        onClosed();
      });
      return;
    }
    if (msg.method === 'tools/call') return json(res, msg.id, { content: [{ type: 'text', text: 'quick' }] });
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

test('R14 a call whose answer trickles forever times out, and its response is let go', {
  timeout: 20_000,
}, async () => {
  const pool = newPool([remote('trickle', url, 1_000)]);
  const letGo = new Promise<void>((resolve) => (onClosed = resolve));
  await assert.rejects(pool.forUser(tester).callTool('trickle', 'trickle', {}), isFailure('timeout'));
  await letGo; // never, without the fix: the host kept reading the trickle
  assert.equal(closed, 1);
  assert.equal(text(await pool.forUser(tester).callTool('trickle', 'quick', {})), 'quick');
  await pool.closeAll();
});
