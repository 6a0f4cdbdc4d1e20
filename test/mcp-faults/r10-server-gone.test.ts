import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exitOf, startHttp, withTimeout } from '@/e2e/fixtures/test-mcp-harness';
import {
  connectionOf,
  exited,
  GUARD_MS,
  isFailure,
  newPool,
  pidOf,
  remote,
  report,
  stderrLine,
  stdio,
  text,
  until,
  tester,
} from '@/test/mcp-faults/harness';
import { FlakyFront, type HttpServer, initializesAt } from '@/test/mcp-faults/remote-front';
import type { McpServerConfig } from '@/lib/schemas/mcp';

// R10: a server goes away while a tool call is pending on it — the remote server's process is killed,
// the network drops its sockets, a stdio child is SIGKILLed. Safe state: the pending call fails at
// once with a connection failure saying so (not after its 60 s timeout), the server is marked
// unhealthy, and once it is back the next call reconnects and works.
//
// The call timeout is 60 s, and each wait is guarded at 10 s (GUARD_MS): a call that only ends by
// timing out fails the test. No time is asserted; the time-to-safe-state lines are for the table.

const CALL_TIMEOUT_MS = 60_000;
const lostMidCall = isFailure('connection', /while the request was pending/);
/**
 * Dropped sockets reach the call by whichever comes first: the connection's loss handler ("…while the
 * request was pending") or the call's own POST failing ("other side closed"); either is a connection failure.
 */
const droppedMidCall = isFailure('connection', /while the request was pending|other side closed/);

/** Resolves once the HTTP test server has logged a line matching `pattern` on its stderr. */
function serverLine(server: HttpServer, pattern: RegExp): Promise<void> {
  return until(() => pattern.test(server.stderr()), `the server to log ${pattern}`);
}

/** The pending call must fail within GUARD_MS (its own timeout is 60 s). */
const failsSoon = (call: Promise<unknown>) =>
  withTimeout(call, GUARD_MS, 'the pending call to fail (its timeout is 60 s)');

async function killedMidCall(transport: 'http' | 'sse') {
  const first = await startHttp(['http', '--port', '0']);
  const port = new URL(first.url).port;
  const config: McpServerConfig =
    transport === 'http'
      ? remote('gone', `${first.url}/mcp`, CALL_TIMEOUT_MS)
      : { ...remote('gone', `${first.url}/sse`, CALL_TIMEOUT_MS), transport: 'sse' };
  const pool = newPool([config]);
  const conn = connectionOf(pool, 'gone');
  assert.equal(text(await pool.forUser(tester).callTool('gone', 'add', { a: 1, b: 2 })), '3');

  const call = pool.forUser(tester).callTool('gone', 'hang', {});
  await serverLine(first, /hang started/);
  const killedAt = performance.now();
  first.child.kill('SIGKILL');
  await assert.rejects(failsSoon(call), lostMidCall);
  report('R10', `${transport} server killed mid-call → call failed`, performance.now() - killedAt);
  const status = conn.status();
  assert.equal(status.status, 'error');
  assert.equal(status.lastError?.kind, 'connection');
  await exitOf(first.child);

  // Back on the same port: the next call starts a new session and works.
  const second = await startHttp(['http', '--port', port]);
  assert.equal(text(await pool.forUser(tester).callTool('gone', 'add', { a: 20, b: 22 })), '42');
  assert.equal(conn.status().status, 'connected');
  if (transport === 'http') assert.equal(initializesAt(second), 1, 'one initialize at the new server');
}

test('R10 a Streamable HTTP server killed mid tools/call: the call fails with a connection failure at once, not after its 60 s timeout; after a restart the next call works', async () => {
  await killedMidCall('http');
});

test('R10 a legacy SSE server killed mid tools/call: the call fails with a connection failure at once; after a restart the next call works', async () => {
  await killedMidCall('sse');
});

test('R10 the network drops every socket to a Streamable HTTP server mid-call (it stays unreachable): the call fails at once; when it is reachable again the next call works', async () => {
  const backend = await startHttp(['http', '--port', '0']);
  const front = new FlakyFront();
  const url = await front.start(backend.url);
  const pool = newPool([remote('dropped', url, CALL_TIMEOUT_MS)]);
  const conn = connectionOf(pool, 'dropped');
  assert.equal(text(await pool.forUser(tester).callTool('dropped', 'add', { a: 1, b: 2 })), '3');

  const call = pool.forUser(tester).callTool('dropped', 'hang', {});
  await serverLine(backend, /hang started/);
  const droppedAt = performance.now();
  await front.down(); // stops listening and destroys every open socket
  await assert.rejects(failsSoon(call), droppedMidCall);
  report('R10', 'sockets dropped mid-call → call failed', performance.now() - droppedAt);
  assert.equal(conn.status().status, 'error');

  await front.up('up');
  await until(() => conn.status().retryAt === null, 'the backoff to allow a reconnect');
  assert.equal(text(await pool.forUser(tester).callTool('dropped', 'echo', { message: 'back' })), 'back');
  assert.equal(conn.status().status, 'connected');
});

test('R10 a stdio child SIGKILLed mid tools/call: the call fails with a connection failure at once, not after its 60 s timeout; the next call restarts it', async () => {
  const pool = newPool([stdio('child', {}, CALL_TIMEOUT_MS)]);
  const conn = connectionOf(pool, 'child');
  assert.equal(text(await pool.forUser(tester).callTool('child', 'add', { a: 1, b: 2 })), '3');
  const pid = await pidOf(conn);

  const call = pool.forUser(tester).callTool('child', 'hang', {});
  await stderrLine(conn, /hang started/);
  const killedAt = performance.now();
  process.kill(pid, 'SIGKILL');
  await assert.rejects(failsSoon(call), isFailure('connection', /closed/i));
  report('R10', 'stdio child SIGKILLed mid-call → call failed', performance.now() - killedAt);
  assert.equal(conn.status().status, 'error');
  await exited(pid);

  assert.equal(text(await pool.forUser(tester).callTool('child', 'echo', { message: 'back' })), 'back');
  assert.notEqual(await pidOf(conn), pid);
  assert.equal(conn.status().status, 'connected');
});
