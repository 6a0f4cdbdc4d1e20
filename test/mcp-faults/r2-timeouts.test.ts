import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CONNECTION_OPTIONS } from '@/lib/mcp/connection';
import {
  connectionOf,
  isFailure,
  newPool,
  report,
  sentMessage,
  spySent,
  stderrLine,
  stdio,
  text,
  tester,
} from '@/test/mcp-faults/harness';
import { StdioConfigSchema } from '@/lib/schemas/mcp';

// R2: a tool never answers; another sends progress forever; the user presses Stop during a slow tool.
// Safe state: a timeout and notifications/cancelled sent; progress resets the timeout but a maximum
// total time still ends the call; Stop cancels within 1 s; late responses are ignored.
//
// Where a case is about the host's timeouts, its timers are moved by hand (exact on any machine); the
// server is a real process, waited on through what it logs. Time-to-safe-state lines use the real clock.

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
  await assert.rejects(pool.forUser(tester).callTool('silent', 'hang', {}), isFailure('timeout'));
  const timedOutAfter = performance.now() - started;
  await stderrLine(conn, /hang cancelled/); // the server saw the cancellation
  report('R2', 'silent tool → timed out (timeout 1 s)', timedOutAfter);
  report('R2', 'silent tool → server saw notifications/cancelled', performance.now() - started);
  assert.equal(cancelled(sent), 1);
  assert.equal(
    text(await pool.forUser(tester).callTool('silent', 'echo', { message: 'still usable' })),
    'still usable',
  );
  assert.equal(conn.status().status, 'connected');
});

test('R2 progress resets the timeout, but the maximum total time still ends the call and cancels it', async (t) => {
  // A 1 s timeout and a 2.5 s cap on the whole call, on a clock moved by hand: 0.9 s at each progress
  // notification (each one restarts the timeout), so the third one takes the call past its cap.
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const pool = newPool([stdio('chatty', {}, 1_000)], { maxTotalCallMs: 2_500 });
  const conn = connectionOf(pool, 'chatty');
  const sent = await spySent(conn);
  const progress: number[] = [];
  await assert.rejects(
    pool.forUser(tester).callTool(
      'chatty',
      'sleep',
      { ms: 100_000, steps: 1_000 },
      {
        onProgress: (p) => {
          progress.push(p.progress);
          t.mock.timers.tick(900);
        },
      },
    ),
    isFailure('timeout', /maximum total/i),
  );
  // 2.7 s passed in all: progress kept the call alive past its 1 s timeout until the cap ended it.
  assert.deepEqual(progress, [1, 2, 3]);
  // Sent with the cap itself (the SDK's own maxTotalTimeout would only cancel a whole timeout later).
  assert.equal(cancelled(sent), 1, 'notifications/cancelled went out when the cap fired');
  await stderrLine(conn, /sleep cancelled after step/); // the server saw the cancellation
  assert.equal(text(await pool.forUser(tester).callTool('chatty', 'add', { a: 1, b: 1 })), '2');
});

test('R2 Stop during a slow tool cancels it within 1 s and tells the server', async (t) => {
  // The host's timers stand still: only Stop can end the call.
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const pool = newPool([stdio('slow', {}, 10_000)]);
  const conn = connectionOf(pool, 'slow');
  const stop = new AbortController();
  const call = pool.forUser(tester).callTool('slow', 'hang', {}, { signal: stop.signal });
  await stderrLine(conn, /hang started/);
  const stoppedAt = performance.now();
  stop.abort();
  await assert.rejects(call, isFailure('timeout'));
  const cancelledAfter = performance.now() - stoppedAt;
  await stderrLine(conn, /hang cancelled/); // the server saw the cancellation
  report('R2', 'Stop → call cancelled', cancelledAfter);
  report('R2', 'Stop → server saw notifications/cancelled', performance.now() - stoppedAt);
});

test('R2 a response that arrives after the timeout is ignored; the connection and later calls are unaffected', async (t) => {
  // This server ignores notifications/cancelled and answers anyway, 0.5 s after the (1 s) timeout. The
  // host's timers are moved by hand, so the timeout fires when we say and no other call can time out.
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const pool = newPool([stdio('late', { TEST_MCP_IGNORE_CANCEL: '1' }, 1_000)]);
  const conn = connectionOf(pool, 'late');
  const client = await conn.getClient();
  const sent = await spySent(conn);
  const events: string[] = [];
  let staleArrived: () => void = () => {};
  const stale = new Promise<void>((resolve) => {
    staleArrived = resolve;
  });
  client.onerror = (err) => {
    if (!/unknown message ID/i.test(err.message)) return;
    events.push('stale answer ignored');
    staleArrived();
  };
  const late = pool.forUser(tester).callTool('late', 'sleep', { ms: 1_500, steps: 1 });
  await sentMessage(sent, (m) => 'method' in m && m.method === 'tools/call');
  t.mock.timers.tick(1_000);
  await assert.rejects(late, isFailure('timeout'));
  await stderrLine(conn, /ignored notifications\/cancelled/); // the cancellation reached the server
  // Meanwhile a new call is in flight when the stale answer arrives; it must get its own answer. (The
  // server started it after the late one and sleeps longer, so the stale answer comes first.)
  const meanwhile = pool
    .forUser(tester)
    .callTool('late', 'sleep', { ms: 2_000, steps: 1 })
    .then((r) => {
      events.push('meanwhile answered');
      return r;
    });
  await stale;
  assert.equal(text(await meanwhile), 'slept 2000ms');
  assert.deepEqual(events, ['stale answer ignored', 'meanwhile answered']);
  assert.equal(text(await pool.forUser(tester).callTool('late', 'echo', { message: 'fine' })), 'fine');
  assert.equal(conn.status().status, 'connected');
});
