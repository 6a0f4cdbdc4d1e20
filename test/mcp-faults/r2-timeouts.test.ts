import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CONNECTION_OPTIONS } from '@/lib/mcp/connection';
import {
  connectionOf,
  isFailure,
  newPool,
  report,
  spySent,
  stderrHas,
  stdio,
  text,
  until,
} from '@/test/mcp-faults/harness';
import { StdioConfigSchema } from '@/lib/schemas/mcp';

// R2: a tool never answers; another sends progress forever; the user presses Stop during a slow tool.
// Safe state: a timeout and notifications/cancelled sent; progress resets the timeout but a maximum
// total time still ends the call; Stop cancels within 1 s; late responses are ignored.

const cancelled = (sent: Awaited<ReturnType<typeof spySent>>) =>
  sent.filter((m) => 'method' in m && m.method === 'notifications/cancelled').length;

test('R2 the defaults: a 60 s tool timeout and a 10 min cap on a call that keeps sending progress', () => {
  assert.equal(StdioConfigSchema.parse({ name: 'x', transport: 'stdio', command: 'x' }).timeoutMs, 60_000);
  assert.equal(DEFAULT_CONNECTION_OPTIONS.maxTotalCallMs, 10 * 60_000);
});

test('R2 a tool that never answers times out, and the server receives notifications/cancelled', async () => {
  const pool = newPool([stdio('silent', {}, 1_000)]);
  const conn = connectionOf(pool, 'silent');
  const sent = await spySent(conn);
  const started = performance.now();
  await assert.rejects(pool.callTool('silent', 'hang', {}), isFailure('timeout'));
  const timedOutAfter = performance.now() - started;
  await until(() => stderrHas(conn, /hang cancelled/), 1_000, 'the server to see the cancellation');
  report('R2', 'silent tool → timed out (timeout 1 s)', timedOutAfter);
  report('R2', 'silent tool → server saw notifications/cancelled', performance.now() - started);
  assert.equal(cancelled(sent), 1);
  assert.equal(text(await pool.callTool('silent', 'echo', { message: 'still usable' })), 'still usable');
  assert.equal(conn.status().status, 'connected');
});

test('R2 progress resets the timeout, but the maximum total time still ends the call and cancels it', async () => {
  // A 1 s timeout, progress every 100 ms for 100 s, and a 2.5 s cap on the whole call.
  const pool = newPool([stdio('chatty', {}, 1_000)], { maxTotalCallMs: 2_500 });
  const conn = connectionOf(pool, 'chatty');
  const sent = await spySent(conn);
  const progress: number[] = [];
  const started = performance.now();
  await assert.rejects(
    pool.callTool(
      'chatty',
      'sleep',
      { ms: 100_000, steps: 1_000 },
      { onProgress: (p) => progress.push(p.progress) },
    ),
    isFailure('timeout', /maximum total/i),
  );
  const endedAfter = performance.now() - started;
  // Sent with the cap itself (the SDK's own maxTotalTimeout would only cancel a whole timeout later).
  assert.equal(cancelled(sent), 1, 'notifications/cancelled went out when the cap fired');
  assert.ok(
    progress.length > 12,
    `progress kept the call alive past its 1 s timeout (${progress.length} notifications)`,
  );
  await until(
    () => stderrHas(conn, /sleep cancelled after step/),
    1_000,
    'the server to see the cancellation',
  );
  report('R2', 'endless progress → ended by the 2.5 s total cap', endedAfter);
  assert.equal(text(await pool.callTool('chatty', 'add', { a: 1, b: 1 })), '2');
});

test('R2 Stop during a slow tool cancels it within 1 s and tells the server', async () => {
  const pool = newPool([stdio('slow', {}, 10_000)]);
  const conn = connectionOf(pool, 'slow');
  const stop = new AbortController();
  const call = pool.callTool('slow', 'hang', {}, { signal: stop.signal });
  await until(() => stderrHas(conn, /hang started/), 2_000, 'the tool to start');
  const stoppedAt = performance.now();
  stop.abort();
  await assert.rejects(call, isFailure('timeout'));
  const cancelledAfter = performance.now() - stoppedAt;
  assert.ok(cancelledAfter < 1_000, `cancelled ${cancelledAfter} ms after Stop`);
  await until(() => stderrHas(conn, /hang cancelled/), 1_000, 'the server to see the cancellation');
  report('R2', 'Stop → call cancelled', cancelledAfter);
  report('R2', 'Stop → server saw notifications/cancelled', performance.now() - stoppedAt);
});

test('R2 a response that arrives after the timeout is ignored; the connection and later calls are unaffected', async () => {
  // This server ignores notifications/cancelled and answers anyway, 0.5 s too late.
  const pool = newPool([stdio('late', { TEST_MCP_IGNORE_CANCEL: '1' }, 1_000)]);
  const conn = connectionOf(pool, 'late');
  const client = await conn.getClient();
  const ignored: string[] = [];
  client.onerror = (err) => ignored.push(err.message);
  const started = performance.now();
  const late = pool.callTool('late', 'sleep', { ms: 1_500, steps: 1 });
  await assert.rejects(late, isFailure('timeout'));
  report('R2', 'late answer → timed out, caller released', performance.now() - started);
  await until(
    () => stderrHas(conn, /ignored notifications\/cancelled/),
    1_000,
    'the cancellation to reach the server',
  );
  // Meanwhile a new call is in flight when the stale answer arrives; it must get its own answer.
  const meanwhile = pool.callTool('late', 'sleep', { ms: 800, steps: 1 });
  await until(() => ignored.some((m) => /unknown message ID/i.test(m)), 3_000, 'the late response to arrive');
  assert.equal(text(await meanwhile), 'slept 800ms');
  assert.equal(text(await pool.callTool('late', 'echo', { message: 'fine' })), 'fine');
  assert.equal(conn.status().status, 'connected');
});
