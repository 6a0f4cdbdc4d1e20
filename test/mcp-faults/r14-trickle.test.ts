import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonMcpServer } from '@/test/mcp-faults/json-server';
import { isFailure, newPool, remote, text, tester } from '@/test/mcp-faults/harness';

// A remote server answers a tools/call by trickling its response (a space every 100 ms, never done).
// The call times out and the SDK sends notifications/cancelled, but it went on reading the response:
// the connection, and what had arrived, stayed for as long as the server liked — one more each call.
// The POST of a cancelled request is now let go.

let closed = 0;
let onClosed: () => void = () => {};
const url = await jsonMcpServer('trickle', { slow: 'trickle', quick: 'quick' }, (res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const drip = setInterval(() => res.write(' '), 100);
  res.on('close', () => {
    clearInterval(drip);
    closed++;
    onClosed();
  });
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
