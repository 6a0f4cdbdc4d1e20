import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type ConnectionOptions, DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';
import { McpFailure } from '@/lib/mcp/errors';
import { spyTransport } from '@/test/mcp-faults/harness';
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
async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
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

  test('a timeout sends notifications/cancelled and leaves the connection usable', async () => {
    const conn = open(stdio({ timeoutMs: 1000 }));
    const sent = spySent(await conn.getClient());
    const started = Date.now();
    await assert.rejects(conn.callTool('hang', {}), isFailure('timeout'));
    assert.ok(Date.now() - started < 4000, 'timed out within a few seconds');
    assert.equal(cancelled(sent).length, 1);
    assert.equal(text(await conn.callTool('add', { a: 1, b: 1 })), '2');
    assert.equal(conn.status().status, 'connected');
  });

  test('aborting the signal cancels a call promptly', async () => {
    const conn = open();
    const sent = spySent(await conn.getClient());
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(), 100);
    await assert.rejects(conn.callTool('hang', {}, { signal: abort.signal }), McpFailure);
    assert.ok(Date.now() - started < 1500, `aborted in ${Date.now() - started} ms`);
    assert.equal(cancelled(sent).length, 1);
    // An already-aborted signal fails before anything is sent.
    await assert.rejects(conn.callTool('sleep', { ms: 5000 }, { signal: abort.signal }), McpFailure);
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
    // The last notification can lose the race with the response (the SDK drops progress that arrives in the
    // same chunk as the result), so only the earlier, well-separated steps are guaranteed.
    assert.deepEqual(progress, [1, 2, 3].slice(0, progress.length));
    assert.ok(progress.length >= 2, `got progress ${progress}`);
  });

  test('tools/list_changed refreshes the cached tool list', async () => {
    const seen: string[][] = [];
    const conn = open(stdio(), { onTools: (_server, tools) => seen.push(tools.map((t) => t.name)) });
    const first = await conn.listTools();
    assert.ok(!first.some((t) => t.name === 'added_later'));
    assert.equal(text(await conn.callTool('change_tools', {})), 'tools changed');
    await until(
      async () => (await conn.listTools()).some((t) => t.name === 'added_later'),
      2000,
      'added_later',
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

  test('an idle connection closes itself, but never while a call is in flight', async () => {
    const conn = open(stdio(), { idleMs: 300 });
    const firstPid = pidOf(await conn.getClient());
    await until(() => conn.status().status === 'idle', 2000, 'the idle close');
    await until(() => !alive(firstPid), 5000, 'the idle child to exit');

    const call = conn.callTool('sleep', { ms: 800, steps: 2 });
    const pid = pidOf(await conn.getClient());
    assert.notEqual(pid, firstPid);
    assert.equal(text(await call), 'slept 800ms');
    assert.equal(conn.status().status, 'connected');
    assert.ok(alive(pid), 'the child survived the long call');
    await until(() => conn.status().status === 'idle', 2000, 'the idle close after the call');
  });
});
