import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exitOf, startHttp } from '@/e2e/fixtures/test-mcp-harness';
import { listPrompts, readResource } from '@/lib/mcp/context-requests';
import { connectionOf, newPool, remote, report, text, until, tester } from '@/test/mcp-faults/harness';
import { FlakyFront, initializesAt, requestsOf } from '@/test/mcp-faults/remote-front';

// R9: a remote server loses our session — it restarted, or expired it — and answers for it as the
// spec says (404) or as the SDK's example servers do (400 "Bad Request: No valid session ID
// provided"). Safe state: the host re-initialises once and sends again what never reached the server
// (tools/list, tools/call refused for the session, prompts and resources); a server that went away
// is noticed by itself (the status tells), and after its restart the next use starts one new session.
//
// Real test-server processes over real HTTP; the call timeout is 60 s throughout, so nothing here
// can pass by timing out.

/** Answers a request for an unknown session as the SDK's examples do: 400, not 404. */
const FORGETS_WITH_400 = { TEST_MCP_UNKNOWN_SESSION: '400' };

test('R9 a server that forgot our session (400 "No valid session ID"): tools/list, tools/call, prompts and resources each re-initialise once and go through', async () => {
  const first = await startHttp(['http', '--port', '0'], FORGETS_WITH_400);
  const front = new FlakyFront();
  const url = await front.start(first.url);
  const pool = newPool([remote('forgetful', url, 60_000)]);
  const conn = connectionOf(pool, 'forgetful');
  await conn.getClient(); // connected; no tool list cached yet, so listTools must ask the server

  /**
   * Runs `use` against a server that no longer knows our session: a new server process behind the
   * same address (the old one stays up, so its event stream to us stays open and only the request
   * itself can tell), then checks what reached it.
   */
  async function forgotten<T>(what: string, use: () => Promise<T>): Promise<T> {
    const next = await startHttp(['http', '--port', '0'], FORGETS_WITH_400);
    front.target = next.url;
    const before = front.seen.length;
    const started = performance.now();
    const result = await use();
    report('R9', `400 for our session → new session, ${what} served`, performance.now() - started);
    const seen = front.seen.slice(before).filter((r) => r.method === 'POST');
    assert.equal(
      seen.filter((r) => r.status === 400 && r.session).length,
      1,
      `${what}: one request was refused for the lost session`,
    );
    assert.equal(initializesAt(next), 1, `${what}: the server saw one initialize`);
    assert.equal(conn.status().status, 'connected', `${what}: the status is connected again`);
    return result;
  }

  const tools = await forgotten('tools/list', () => conn.listTools());
  assert.ok(tools.some((t) => t.name === 'add'));
  const sum = await forgotten('tools/call', () =>
    pool.forUser(tester).callTool('forgetful', 'add', { a: 2, b: 3 }),
  );
  assert.equal(text(sum), '5');
  const prompts = await forgotten('prompts/list', () => conn.request(listPrompts));
  assert.ok(prompts.some((p) => p.name === 'greeting'));
  const readme = await forgotten('resources/read', () => conn.request(readResource('test://docs/readme')));
  assert.equal(readme.contents[0]?.uri, 'test://docs/readme');

  const status = conn.status();
  assert.equal(status.lastError, null);
  assert.equal(status.retryAt, null, 'a forgotten session is no reason to back off');
});

test('R9 a Streamable HTTP server restarted on the same port: the host notices it went away (status), then the next tools/list and tools/call start one new session', async () => {
  const first = await startHttp(['http', '--port', '0'], FORGETS_WITH_400);
  const port = new URL(first.url).port;
  const pool = newPool([remote('restarted', `${first.url}/mcp`, 60_000)]);
  const conn = connectionOf(pool, 'restarted');
  assert.equal(text(await pool.forUser(tester).callTool('restarted', 'add', { a: 1, b: 2 })), '3');
  await conn.listTools();
  assert.equal(conn.status().status, 'connected');

  // Killed while idle: nothing is pending, yet the status must not keep saying "connected".
  const killedAt = performance.now();
  first.child.kill('SIGKILL');
  await exitOf(first.child);
  await until(() => conn.status().status !== 'connected', 'the host to notice the server went away');
  report('R9', 'idle server killed → status no longer connected', performance.now() - killedAt);
  const down = conn.status();
  assert.equal(down.status, 'error');
  assert.equal(down.lastError?.kind, 'connection');

  // Back on the same port, knowing nothing of the old session.
  const second = await startHttp(['http', '--port', port], FORGETS_WITH_400);
  const listsBefore = conn.listRequests;
  const tools = await conn.listTools();
  assert.ok(tools.some((t) => t.name === 'echo'));
  assert.equal(
    conn.listRequests - listsBefore,
    1,
    'the tool list was fetched anew from the restarted server',
  );
  assert.equal(text(await pool.forUser(tester).callTool('restarted', 'echo', { message: 'back' })), 'back');
  assert.equal(initializesAt(second), 1, 'the restarted server saw one initialize');
  const oldSessions = new Set(requestsOf(first).map((r) => r.session));
  assert.deepEqual(
    requestsOf(second).filter((r) => r.session && oldSessions.has(r.session)),
    [],
    'nothing was sent to the restarted server with the old session id',
  );
  const status = conn.status();
  assert.equal(status.status, 'connected');
  assert.equal(status.lastError, null);
});

test('R9 concurrent calls on a forgotten session: each was refused for the session, so each is sent again on one new session; none fails as "may have run"', async () => {
  const first = await startHttp(['http', '--port', '0'], FORGETS_WITH_400);
  const front = new FlakyFront();
  const url = await front.start(first.url);
  const pool = newPool([remote('busy', url, 60_000)]);
  assert.equal(text(await pool.forUser(tester).callTool('busy', 'add', { a: 1, b: 1 })), '2');

  const next = await startHttp(['http', '--port', '0'], FORGETS_WITH_400);
  front.target = next.url;
  const before = front.seen.length;
  const sums = await Promise.all(
    Array.from({ length: 8 }, (_, i) => pool.forUser(tester).callTool('busy', 'add', { a: i, b: 100 })),
  );
  assert.deepEqual(
    sums.map(text),
    Array.from({ length: 8 }, (_, i) => String(i + 100)),
  );
  const refused = front.seen.slice(before).filter((r) => r.method === 'POST' && r.status === 400);
  assert.equal(refused.length, 8, 'every call was refused once for the lost session');
  assert.equal(initializesAt(next), 1, 'they shared one new session');
  assert.equal(connectionOf(pool, 'busy').status().status, 'connected');
});
