import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHttp } from '@/e2e/fixtures/test-mcp-harness';
import {
  connectionOf,
  FAST,
  isFailure,
  newPool,
  remote,
  report,
  stdio,
  text,
  tester,
} from '@/test/mcp-faults/harness';
import { FlakyFront } from '@/test/mcp-faults/remote-front';
import type { McpPool } from '@/lib/mcp/pool';

// R3: a remote server flaps (connection refused, 503, healthy again), answers 404 for our session,
// and 20 users hit it while it is down. Safe state: capped exponential backoff, one circuit breaker
// shared by every caller (no storm), the other servers keep working, 404 starts a new session, and
// it recovers by itself.
//
// The breaker reads Date: moved by hand in the flapping case, so its waits are exact on any machine.

const CALLERS = 20;
const storm = (pool: McpPool) =>
  Promise.allSettled(
    Array.from({ length: CALLERS }, (_, i) => pool.forUser(tester).callTool('flaky', 'add', { a: i, b: 1 })),
  );
const reasons = (results: PromiseSettledResult<unknown>[]) =>
  results.map((r) => {
    assert.equal(r.status, 'rejected', 'no call to a down server succeeds');
    return (r as PromiseRejectedResult).reason as Error;
  });
/** The backoff set by the last failure: from when it was recorded to the next allowed attempt. */
const waitOf = (pool: McpPool) => {
  const status = connectionOf(pool, 'flaky').status();
  return Date.parse(status.retryAt ?? '') - Date.parse(status.lastError?.at ?? '');
};

test('R3 a flapping remote (refused, 503, healthy): one shared breaker, capped exponential backoff, no storm, others unaffected, recovery', async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const backend = await startHttp(['http', '--port', '0']);
  const front = new FlakyFront();
  const url = await front.start(backend.url);
  const pool = newPool([remote('flaky', url), stdio('steady')]);
  const flaky = connectionOf(pool, 'flaky');
  assert.equal(text(await pool.forUser(tester).callTool('flaky', 'add', { a: 1, b: 2 })), '3');
  assert.equal(text(await pool.forUser(tester).callTool('steady', 'add', { a: 1, b: 2 })), '3');

  // Refused: the call in flight when it goes down fails; the one reconnect all callers share fails too.
  await front.down();
  const downAt = performance.now();
  await assert.rejects(
    pool.forUser(tester).callTool('flaky', 'add', { a: 1, b: 1 }),
    isFailure('connection'),
  );
  const [first, steady] = await Promise.all([
    storm(pool),
    pool.forUser(tester).callTool('steady', 'echo', { message: 'unaffected' }),
  ]);
  assert.equal(text(steady), 'unaffected', 'another server keeps working while this one is down');
  assert.equal(
    new Set(reasons(first).map((e) => e.message)).size,
    1,
    'the 20 callers shared one failed attempt',
  );
  assert.equal(flaky.status().status, 'error');
  const opened = waitOf(pool);
  assert.ok(opened > 0, 'the breaker is open');
  const waits = [opened];
  report('R3', 'refused → breaker open, callers failing fast', performance.now() - downAt);

  // While it is open, every caller fails fast without touching the network.
  const fastStart = performance.now();
  for (const err of reasons(await storm(pool)))
    assert.ok(isFailure('connection', /next retry/)(err), err.message);
  report('R3', `${CALLERS} callers while open → all failed fast`, performance.now() - fastStart);

  // 503: each time the breaker half-opens, 20 callers cause one request; the wait doubles up to its cap.
  await front.up('503');
  const from503 = front.seen.length;
  for (let round = 0; round < 3; round++) {
    t.mock.timers.tick(waits.at(-1) ?? 0);
    assert.equal(
      flaky.status().retryAt,
      null,
      `round ${round}: the breaker half-opens when its wait is over`,
    );
    const before = front.seen.length;
    const results = reasons(await storm(pool));
    const requests = front.seen.length - before;
    assert.equal(requests, 1, `round ${round}: ${CALLERS} callers → ${requests} request(s) at the server`);
    assert.ok(
      results.every((e) => /503/.test(e.message)),
      'the callers see the 503',
    );
    waits.push(waitOf(pool));
    assert.equal(text(await pool.forUser(tester).callTool('steady', 'add', { a: 2, b: 2 })), '4');
  }
  assert.equal(front.seen.length - from503, 3, 'only the three probes reached the server while it failed');
  assert.deepEqual(
    waits,
    [FAST.baseBackoffMs * 2, FAST.maxBackoffMs, FAST.maxBackoffMs, FAST.maxBackoffMs],
    'the wait doubles up to its cap',
  );

  // Healthy again: callers fail fast until the wait is over; then the next one reconnects (a new session).
  await front.up('up');
  const before = front.seen.length;
  await assert.rejects(
    pool.forUser(tester).callTool('flaky', 'add', { a: 40, b: 2 }),
    isFailure('connection', /next retry/),
  );
  assert.equal(front.seen.length, before, 'nothing reached the server before the wait was over');
  t.mock.timers.tick(waits.at(-1) ?? 0);
  const healedAt = performance.now();
  assert.equal(text(await pool.forUser(tester).callTool('flaky', 'add', { a: 40, b: 2 })), '42');
  report('R3', 'healthy again, breaker half-open → first successful call', performance.now() - healedAt);
  assert.equal(flaky.status().status, 'connected');
  const results = await storm(pool);
  assert.ok(
    results.every((r) => r.status === 'fulfilled'),
    'all callers are served again',
  );
});

test('R3 a 404 for our session id (the server restarted) starts a new session, and the call goes through', async () => {
  const first = await startHttp(['http', '--port', '0']);
  const front = new FlakyFront();
  const url = await front.start(first.url);
  const pool = newPool([remote('flaky', url)]);
  assert.equal(text(await pool.forUser(tester).callTool('flaky', 'add', { a: 1, b: 2 })), '3');
  const oldSession = front.seen.find((r) => r.session)?.session;
  assert.ok(oldSession, 'a session was established');

  // The server behind the same address restarts: it no longer knows our session.
  const second = await startHttp(['http', '--port', '0']);
  front.target = second.url;
  first.child.kill('SIGKILL');
  const started = performance.now();
  assert.equal(text(await pool.forUser(tester).callTool('flaky', 'add', { a: 2, b: 3 })), '5');
  report('R3', '404 for our session → new session, call served', performance.now() - started);
  assert.ok(
    front.seen.some((r) => r.session === oldSession && r.status === 404),
    'the old session got a 404',
  );
  const newSessions = new Set(
    front.seen.filter((r) => r.session && r.session !== oldSession && r.status === 200).map((r) => r.session),
  );
  assert.equal(newSessions.size, 1, 'then one new session served the call');
  const status = connectionOf(pool, 'flaky').status();
  assert.equal(status.status, 'connected');
  assert.equal(status.retryAt, null, 'a forgotten session is no reason to back off');
});
