import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import {
  connectionOf,
  exited,
  FIXTURE,
  isFailure,
  markedProcesses,
  newPool,
  pidOf,
  stdio,
  text,
  tester,
} from '@/test/mcp-faults/harness';
import type { StdioConfig } from '@/lib/schemas/mcp';

// A stdio server started through a wrapper, or one that starts helpers, leaves processes holding its
// stdout (here `sleep`, started in the background by the shell that then becomes the server). When the
// server dies, the host must see it at once and restart it on next use; when the host closes it, its
// helpers must go too. (With the SDK's transport, which waits for the pipes to close, the crashed
// server looked connected: every call timed out and it was never restarted; a close left `sleep` running.)

const wrapped = (name: string): StdioConfig => ({
  ...stdio(name),
  command: '/bin/sh',
  args: ['-c', `sleep 600 & exec "${process.execPath}" "${FIXTURE}" stdio`],
});

afterEach(() => {
  for (const pid of markedProcesses()) process.kill(pid, 'SIGKILL'); // leftovers of a failed case
});

test('R12 a server that crashes while a helper it started holds its stdout: the call fails as a lost connection, the helper is killed, the next use restarts it', async () => {
  const pool = newPool([wrapped('wrapped')]);
  const conn = connectionOf(pool, 'wrapped');
  assert.equal(text(await pool.forUser(tester).callTool('wrapped', 'add', { a: 1, b: 2 })), '3');
  const pid = await pidOf(conn);
  assert.equal(markedProcesses().length, 2, 'the server and its helper run');

  await assert.rejects(pool.forUser(tester).callTool('wrapped', 'crash', {}), isFailure('connection'));
  assert.equal(conn.status().status, 'error');
  await exited(pid);
  assert.deepEqual(markedProcesses(), [], 'the helper went with the server');

  assert.equal(text(await pool.forUser(tester).callTool('wrapped', 'add', { a: 2, b: 2 })), '4');
  assert.notEqual(await pidOf(conn), pid, 'restarted');
  await pool.closeAll();
});

test('R12 closing a server ends the helpers it started, not only the server', async () => {
  const pool = newPool([wrapped('closed')]);
  const conn = connectionOf(pool, 'closed');
  assert.equal(text(await pool.forUser(tester).callTool('closed', 'add', { a: 1, b: 2 })), '3');
  assert.ok(await pidOf(conn));
  assert.equal(markedProcesses().length, 2, 'the server and its helper run');
  await pool.closeAll(); // resolves once the server's pipes have closed
  assert.deepEqual(markedProcesses(), []);
});
