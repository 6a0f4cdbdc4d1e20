import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  connectionOf,
  exited,
  FAST,
  isFailure,
  markedProcesses,
  newPool,
  pidOf,
  procState,
  report,
  stderrHas,
  stderrLine,
  stdio,
  text,
  tester,
} from '@/test/mcp-faults/harness';
import type { ServerStatusInfo } from '@/lib/schemas/mcp';

/** The backoff set by the last failure: from when it was recorded to the next allowed attempt. */
const backoffOf = (s: ServerStatusInfo) => Date.parse(s.retryAt ?? '') - Date.parse(s.lastError?.at ?? '');

// R1: a stdio server dies mid tools/call (SIGKILL, or exit 1 with stderr); an admin disables a server
// that ignores SIGTERM. Safe state: the call ends within about 1 s with a clear error, the server is
// marked unhealthy with its stderr tail kept, it is restarted lazily with backoff, a disable kills
// within 5 s, and no child is left orphaned or as a zombie.
//
// The clocks the host reads (its timers, or Date for the backoff) are moved by hand where a case is
// about time, so "within" and "not before" hold exactly on any machine; the servers are real processes,
// waited on through their events. The time-to-safe-state lines are measured on the real clock.

test('R1 SIGKILL mid tools/call: the call fails within 1 s, the server is unhealthy, the child is reaped, restarted only on next use', async (t) => {
  // The host's timers stand still: the call can only fail because the child died, not by its timeout.
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const pool = newPool([stdio('victim')]);
  const conn = connectionOf(pool, 'victim');
  assert.equal(text(await pool.forUser(tester).callTool('victim', 'add', { a: 1, b: 2 })), '3');
  const pid = await pidOf(conn);

  const call = pool.forUser(tester).callTool('victim', 'hang', {});
  await stderrLine(conn, /hang started/);
  const killedAt = performance.now();
  process.kill(pid, 'SIGKILL');
  await assert.rejects(call, isFailure('connection', /closed/i));
  const failedAfter = performance.now() - killedAt;

  const status = conn.status();
  assert.equal(status.status, 'error');
  assert.equal(status.lastError?.kind, 'connection');
  await exited(pid);
  assert.equal(procState(pid), null, 'the killed child is reaped (no zombie)');
  report('R1', 'SIGKILL mid-call → call failed, server marked error', failedAfter);
  report('R1', 'SIGKILL → child reaped', performance.now() - killedAt);

  // Lazy: nothing is respawned until someone needs the server, however much time passes.
  t.mock.timers.tick(10 * 60_000);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(markedProcesses(), [], 'no child was restarted on its own');
  assert.equal(conn.status().status, 'error');
  assert.equal(text(await pool.forUser(tester).callTool('victim', 'echo', { message: 'back' })), 'back');
  assert.notEqual(await pidOf(conn), pid);
  assert.equal(conn.status().status, 'connected');
  await pool.closeAll();
});

test('R1 exit 1 with stderr mid-call: a clear error with the stderr tail; repeated crashes back off exponentially', async (t) => {
  // The backoff reads Date: moved by hand, so the waits are exact.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const pool = newPool([stdio('crashy')]);
  const conn = connectionOf(pool, 'crashy');
  assert.equal(text(await pool.forUser(tester).callTool('crashy', 'add', { a: 2, b: 2 })), '4');

  const started = performance.now();
  await assert.rejects(pool.forUser(tester).callTool('crashy', 'crash', {}), isFailure('connection'));
  report('R1', 'exit 1 mid-call → call failed', performance.now() - started);
  assert.ok(stderrHas(conn, /crashing on purpose/), 'the stderr tail is kept');
  const status = conn.status();
  assert.equal(status.status, 'error');
  assert.match(status.lastError?.message ?? '', /stderr: test-mcp-server: crashing on purpose/);
  assert.equal(status.retryAt, null, 'one crash of a working server: the next use may restart it at once');

  // It crashes again before answering anything: now it backs off, and callers fail fast meanwhile.
  await assert.rejects(pool.forUser(tester).callTool('crashy', 'crash', {}), isFailure('connection'));
  const firstWait = backoffOf(conn.status());
  assert.ok(firstWait > 0, 'a backoff runs after the second crash in a row');
  t.mock.timers.tick(firstWait - 1);
  await assert.rejects(
    pool.forUser(tester).callTool('crashy', 'add', { a: 1, b: 1 }),
    isFailure('connection', /next retry/),
  );
  assert.deepEqual(markedProcesses(), [], 'no restart during the backoff');

  t.mock.timers.tick(1);
  assert.equal(conn.status().retryAt, null, 'the first backoff has ended');
  await assert.rejects(pool.forUser(tester).callTool('crashy', 'crash', {}), isFailure('connection'));
  const secondWait = backoffOf(conn.status());
  assert.deepEqual(
    [firstWait, secondWait],
    [FAST.baseBackoffMs, FAST.baseBackoffMs * 2],
    'the backoff doubles',
  );

  t.mock.timers.tick(secondWait);
  assert.equal(conn.status().retryAt, null, 'the second backoff has ended');
  assert.equal(text(await pool.forUser(tester).callTool('crashy', 'add', { a: 20, b: 22 })), '42');
  assert.equal(conn.status().status, 'connected');
  await pool.closeAll();
});

test('R1 disabling a server that ignores SIGTERM kills it within 5 s (stdin closed, SIGTERM, SIGKILL), no orphan or zombie', async (t) => {
  // The host's timers are moved by hand: the child must be gone after 4 s of them (2 s after closing
  // stdin, 2 s after SIGTERM), well within the 5 s.
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const config = stdio('stubborn', { TEST_MCP_IGNORE_SIGTERM: '1' });
  const pool = newPool([config]);
  const conn = connectionOf(pool, 'stubborn');
  assert.equal(text(await pool.forUser(tester).callTool('stubborn', 'add', { a: 1, b: 1 })), '2');
  const pid = await pidOf(conn);

  const disabledAt = performance.now();
  pool.sync([{ ...config, enabled: false }]);
  await stderrLine(conn, /stdin closed; staying up/); // stdin was closed first
  t.mock.timers.tick(2_000);
  await stderrLine(conn, /ignoring SIGTERM/); // then SIGTERM was sent (and ignored)
  t.mock.timers.tick(2_000);
  await exited(pid); // so SIGKILL ended it
  assert.equal(procState(pid), null, 'the stubborn child is killed and reaped');
  report(
    'R1',
    'disable of a SIGTERM-ignoring server → child gone (host timers moved 4 s)',
    performance.now() - disabledAt,
  );
  assert.equal(pool.statuses()[0]?.status, 'disabled');
  await assert.rejects(pool.forUser(tester).callTool('stubborn', 'add', { a: 1, b: 1 }), /not available/);
});

test('R1 after every pool closes, no child of these tests is left running, orphaned or as a zombie', async () => {
  const pool = newPool([stdio('one'), stdio('two'), stdio('three')]);
  await pool.forUser(tester).tools();
  const pids = await Promise.all(['one', 'two', 'three'].map((n) => pidOf(connectionOf(pool, n))));
  assert.equal(markedProcesses().length, 3);
  const closing = performance.now();
  await pool.closeAll();
  await Promise.all(pids.map(exited));
  report('R1', 'closeAll → every child gone', performance.now() - closing);
  assert.deepEqual(
    pids.map(procState),
    pids.map(() => null),
    'every child is reaped',
  );
  assert.deepEqual(markedProcesses(), []);
});
