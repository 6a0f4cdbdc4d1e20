import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type ConnectionOptions, DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';
import { McpFailure } from '@/lib/mcp/errors';
import { exited, spyTransport, stderrLine } from '@/test/mcp-faults/harness';
import type { StdioConfig } from '@/lib/schemas/mcp';

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const OPTS: ConnectionOptions = { ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 10_000 };

/** Counts child processes spawned for the test server (the SDK spawns through child_process.spawn). */
let spawns = 0;
const realSpawn = childProcess.spawn;
childProcess.spawn = ((...args: Parameters<typeof realSpawn>) => {
  if (JSON.stringify(args).includes('test-mcp-server')) spawns++;
  return realSpawn(...args);
}) as typeof realSpawn;

const connections: McpConnection[] = [];
after(async () => {
  await Promise.all(connections.map((c) => c.close()));
  childProcess.spawn = realSpawn;
});

const stdio = (extra: Partial<StdioConfig> = {}): StdioConfig => ({
  name: 'tests',
  transport: 'stdio',
  allow: ['*'],
  scope: 'shared',
  userValues: [],
  enabled: true,
  timeoutMs: 10_000,
  command: process.execPath,
  args: [FIXTURE, 'stdio'],
  env: {},
  cwd: null,
  ...extra,
});

function open(config: StdioConfig = stdio(), opts: Partial<ConnectionOptions> = {}): McpConnection {
  const conn = new McpConnection(config, { ...OPTS, ...opts });
  connections.push(conn);
  return conn;
}

const text = (r: { content: Array<{ type: string; text?: string }> }) =>
  r.content.map((c) => c.text ?? '').join('');
const pidOf = (client: Client) => {
  const pid = (client.transport as StdioClientTransport | undefined)?.pid;
  assert.ok(pid, 'the client has a child process');
  return pid;
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** Whether `promise` has settled by the time the callbacks queued so far (setImmediate) have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}
/** Records the messages the client sends (Protocol calls transport.send for every outgoing message). */
const spySent = (client: Client): JSONRPCMessage[] => spyTransport(client.transport);
const cancelled = (sent: JSONRPCMessage[]) =>
  sent.filter((m) => 'method' in m && m.method === 'notifications/cancelled');
const isFailure = (kind: McpFailure['kind']) => (err: unknown) =>
  err instanceof McpFailure && err.kind === kind;

describe('McpConnection over stdio', () => {
  test('concurrent first uses share one connect, one child and one tools/list', async () => {
    const conn = open();
    const before = spawns;
    const [clients, lists] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => conn.getClient())),
      Promise.all(Array.from({ length: 5 }, () => conn.listTools())),
    ]);
    assert.equal(spawns - before, 1);
    assert.equal(conn.listRequests, 1);
    assert.ok(clients.every((c) => c === clients[0]));
    assert.ok(lists.every((l) => l === lists[0]));
    assert.ok(lists[0]?.some((t) => t.name === 'add'));
    assert.equal(conn.status().status, 'connected');
  });

  test('a crash fails the call as a connection error; the next call reconnects', async () => {
    const conn = open();
    const first = await conn.getClient();
    await assert.rejects(conn.callTool('crash', {}), isFailure('connection'));
    const status = conn.status();
    assert.equal(status.status, 'error');
    assert.equal(status.lastError?.kind, 'connection');
    assert.match(status.lastError?.message ?? '', /closed/);
    assert.equal(text(await conn.callTool('add', { a: 2, b: 3 })), '5');
    assert.notEqual(await conn.getClient(), first);
    assert.equal(conn.status().status, 'connected');
  });

  test('a timeout sends notifications/cancelled and leaves the connection usable', async (t) => {
    // Timers are moved by hand: the call times out exactly when its timeout has passed, never before.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const conn = open(stdio({ timeoutMs: 1000 }));
    const sent = spySent(await conn.getClient());
    const call = conn.callTool('hang', {});
    await stderrLine(conn, /hang started/); // the server has the call (its timeout runs from the send)
    t.mock.timers.tick(999);
    assert.equal(await settled(call), false, 'still waiting 1 ms before the timeout');
    t.mock.timers.tick(1);
    await assert.rejects(call, isFailure('timeout'));
    assert.equal(cancelled(sent).length, 1);
    assert.equal(text(await conn.callTool('add', { a: 1, b: 1 })), '2');
    assert.equal(conn.status().status, 'connected');
  });

  test('aborting the signal cancels a call promptly', async (t) => {
    // Clocks stand still: no timeout can end the call, only the abort.
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    const conn = open();
    const sent = spySent(await conn.getClient());
    const abort = new AbortController();
    const call = conn.callTool('hang', {}, { signal: abort.signal });
    await stderrLine(conn, /hang started/);
    abort.abort();
    await assert.rejects(call, McpFailure);
    assert.equal(cancelled(sent).length, 1);
    // An already-aborted signal fails before anything is sent.
    await assert.rejects(conn.callTool('sleep', { ms: 5000 }, { signal: abort.signal }), McpFailure);
    assert.equal(sent.filter((m) => 'method' in m && m.method === 'tools/call').length, 1);
    assert.equal(text(await conn.callTool('echo', { message: 'still here' })), 'still here');
  });

  test('progress notifications reach onProgress', async () => {
    const conn = open();
    const progress: number[] = [];
    const result = await conn.callTool(
      'sleep',
      { ms: 300, steps: 3 },
      { onProgress: (p) => progress.push(p.progress) },
    );
    assert.equal(text(result), 'slept 300ms');
    // The test server waits for the client to handle each step (a ping) before it goes on: all arrive.
    assert.deepEqual(progress, [1, 2, 3]);
  });

  test('tools/list_changed refreshes the cached tool list', async () => {
    const seen: string[][] = [];
    let sawAddedLater: () => void = () => {};
    const addedLater = new Promise<void>((resolve) => {
      sawAddedLater = resolve;
    });
    const conn = open(stdio(), {
      onTools: (_server, tools) => {
        seen.push(tools.map((t) => t.name));
        if (tools.some((t) => t.name === 'added_later')) sawAddedLater();
      },
    });
    const first = await conn.listTools();
    assert.ok(!first.some((t) => t.name === 'added_later'));
    assert.equal(text(await conn.callTool('change_tools', {})), 'tools changed');
    await addedLater; // the refresh that list_changed started
    assert.ok(
      (await conn.listTools()).some((t) => t.name === 'added_later'),
      'the cache has the new list',
    );
    assert.ok(conn.listRequests >= 2);
    assert.ok(seen.at(-1)?.includes('added_later'), 'the observer saw the new list');
  });

  test('the child gets the allowlisted environment plus its own variables, never our secrets', async () => {
    const canary = `canary-${crypto.randomUUID()}`;
    process.env.CANARY_SECRET = canary;
    try {
      const conn = open(stdio({ env: { MY_VAR: 'x' } }));
      assert.equal(text(await conn.callTool('env', { name: 'CANARY_SECRET' })), '(unset)');
      assert.equal(text(await conn.callTool('env', { name: 'MY_VAR' })), 'x');
      assert.notEqual(text(await conn.callTool('env', { name: 'PATH' })), '(unset)');
      assert.ok(text(await conn.callTool('env', { name: 'PATH' })).length > 0);
      assert.ok(!conn.stderr.tail().join('\n').includes(canary));
    } finally {
      delete process.env.CANARY_SECRET;
    }
  });

  test('an idle connection closes itself, but never while a call is in flight', async (t) => {
    // The idle timer is moved by hand; the child and its tool call run in real time.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const idleMs = 300;
    const conn = open(stdio(), { idleMs });
    const firstPid = pidOf(await conn.getClient());
    t.mock.timers.tick(idleMs - 1);
    assert.equal(conn.status().status, 'connected', 'not idle before idleMs');
    t.mock.timers.tick(1);
    assert.equal(conn.status().status, 'idle');
    await exited(firstPid);

    // Ten idle periods pass while a call runs (at its first progress notification, well before its end).
    const during: string[] = [];
    const call = conn.callTool(
      'sleep',
      { ms: 400, steps: 2 },
      {
        onProgress: (p) => {
          if (p.progress !== 1) return;
          t.mock.timers.tick(10 * idleMs);
          during.push(conn.status().status);
        },
      },
    );
    const pid = pidOf(await conn.getClient());
    assert.notEqual(pid, firstPid);
    assert.equal(text(await call), 'slept 400ms');
    assert.deepEqual(during, ['connected'], 'the connection stayed open through the call');
    assert.equal(conn.status().status, 'connected');
    assert.ok(alive(pid), 'the child survived the long call');
    t.mock.timers.tick(idleMs);
    assert.equal(conn.status().status, 'idle', 'the idle close after the call');
  });
});
