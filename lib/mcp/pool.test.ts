import assert from 'node:assert/strict';
import childProcess, { type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type ConnectionOptions, DEFAULT_CONNECTION_OPTIONS } from '@/lib/mcp/connection';
import { McpFailure } from '@/lib/mcp/errors';
import { McpPool } from '@/lib/mcp/pool';
import type { McpServerConfig, StdioConfig } from '@/lib/schemas/mcp';

/** Every server here is open to everyone; the pool still needs to know who is asking. */
const tester = { id: 'tester', email: 'tester@example.com', role: 'admin' };

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const MISSING = '/nonexistent/binary';
const OPTS: ConnectionOptions = {
  ...DEFAULT_CONNECTION_OPTIONS,
  connectTimeoutMs: 10_000,
  baseBackoffMs: 200,
  maxBackoffMs: 2_000,
};

/** Spawn attempts per command, and the children by pid (the SDK spawns through child_process.spawn). */
const spawned = new Map<string, number>();
const children = new Map<number, ChildProcess>();
const realSpawn = childProcess.spawn;
childProcess.spawn = ((...args: Parameters<typeof realSpawn>) => {
  const command = String(args[0]);
  spawned.set(command, (spawned.get(command) ?? 0) + 1);
  const child = realSpawn(...args);
  if (child.pid) children.set(child.pid, child);
  return child;
}) as typeof realSpawn;

const pools: McpPool[] = [];
after(async () => {
  await Promise.all(pools.map((p) => p.closeAll()));
  childProcess.spawn = realSpawn;
});
function newPool(configs: McpServerConfig[]): McpPool {
  const pool = new McpPool(OPTS);
  pools.push(pool);
  pool.sync(configs);
  return pool;
}

const stdio = (name: string, extra: Partial<StdioConfig> = {}): StdioConfig => ({
  name,
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
const builtin = (name: 'calculator' | 'time'): McpServerConfig => ({
  name,
  transport: 'builtin',
  allow: ['*'],
  scope: 'shared',
  userValues: [],
  builtin: name,
  enabled: true,
  timeoutMs: 10_000,
});

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
/** Resolves when the child process `pid` has exited and been reaped. */
async function exited(pid: number): Promise<void> {
  const child = children.get(pid);
  assert.ok(child, `child ${pid} was spawned by this test`);
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  assert.ok(!alive(pid), `child ${pid} is gone`);
}
const connection = (pool: McpPool, name: string) => {
  const conn = pool.get(name);
  assert.ok(conn, `pool has "${name}"`);
  return conn;
};

describe('McpPool', () => {
  test('a warm turn sends no tools/list', async () => {
    const pool = newPool([stdio('a')]);
    pool.warm();
    const [first] = await pool.forUser(tester).tools();
    assert.ok(first && 'tools' in first && first.tools.some((t) => t.name === 'add'));
    const conn = connection(pool, 'a');
    assert.equal(conn.listRequests, 1);
    for (let i = 0; i < 3; i++) await pool.forUser(tester).tools();
    await pool.forUser(tester).tools(['a']);
    assert.equal(conn.listRequests, 1);
    assert.equal(text(await pool.forUser(tester).callTool('a', 'add', { a: 40, b: 2 })), '42');
    assert.equal(conn.listRequests, 1);
  });

  test('builtin servers run in memory', async () => {
    const pool = newPool([builtin('calculator'), builtin('time')]);
    const catalog = await pool.forUser(tester).tools();
    assert.deepEqual(
      catalog.map((s) => [s.server, 'tools' in s && s.tools.length > 0]),
      [
        ['calculator', true],
        ['time', true],
      ],
    );
    assert.match(
      text(await pool.forUser(tester).callTool('calculator', 'evaluate', { expression: '1/3 + 1/6' })),
      /1\/2|0\.5/,
    );
  });

  test('a missing command fails with ENOENT, then backs off without respawning', async (t) => {
    // The backoff reads the clock: moved by hand, so the waits are exact on any machine.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const pool = newPool([stdio('bad', { command: MISSING, args: [] })]);
    const conn = connection(pool, 'bad');
    await assert.rejects(
      conn.getClient(),
      (err) => err instanceof McpFailure && err.kind === 'connection' && /ENOENT/.test(err.message),
    );
    assert.equal(spawned.get(MISSING), 1);
    const status = conn.status();
    assert.equal(status.status, 'error');
    assert.match(status.lastError?.message ?? '', /ENOENT/);
    assert.ok(status.retryAt, 'retryAt is set');

    await assert.rejects(
      conn.getClient(),
      (err) => err instanceof McpFailure && /next retry/.test(err.message),
    );
    await assert.rejects(pool.forUser(tester).callTool('bad', 'add', {}), /next retry/);
    assert.equal(spawned.get(MISSING), 1, 'no spawn during the backoff');
    assert.equal(Date.parse(status.retryAt ?? '') - Date.now(), OPTS.baseBackoffMs, 'the first backoff');

    t.mock.timers.tick(OPTS.baseBackoffMs - 1);
    await assert.rejects(conn.getClient(), /next retry/);
    assert.equal(spawned.get(MISSING), 1, 'still no spawn 1 ms before the backoff ends');
    t.mock.timers.tick(1);
    assert.equal(conn.status().retryAt, null, 'the backoff has ended');
    await assert.rejects(conn.getClient(), /ENOENT/);
    assert.equal(spawned.get(MISSING), 2, 'a new attempt after the backoff');
    const wait = Date.parse(conn.status().retryAt ?? '') - Date.now();
    assert.equal(wait, OPTS.baseBackoffMs * 2, 'the second backoff doubles');
  });

  test('a broken server is reported without hiding or delaying the others', async () => {
    const pool = newPool([
      stdio('good'),
      stdio('missing', { command: MISSING, args: [] }),
      stdio('dies', { env: { TEST_MCP_EXIT_AT_START: '1' } }),
      stdio('off', { enabled: false }),
    ]);
    const catalog = await pool.forUser(tester).tools();
    const byName = new Map(catalog.map((s) => [s.server, s]));
    assert.deepEqual([...byName.keys()].sort(), ['dies', 'good', 'missing']);
    const good = byName.get('good');
    assert.ok(good && 'tools' in good && good.tools.some((t) => t.name === 'echo'));
    // Each broken server failed on its own (a connection error), none was cut off by the pool's wait
    // limit (that would be a 'timeout', "still connecting"): the catalog did not wait on them.
    for (const name of ['missing', 'dies']) {
      const entry = byName.get(name);
      assert.ok(entry && 'error' in entry, `${name} has an error entry`);
      assert.equal(entry.error.kind, 'connection');
    }
    const statuses = new Map(pool.statuses().map((s) => [s.name, s]));
    assert.equal(statuses.get('good')?.status, 'connected');
    assert.equal(statuses.get('dies')?.status, 'error');
    assert.match(statuses.get('dies')?.lastError?.message ?? '', /stderr: fatal: bad config/);
    assert.equal(statuses.get('off')?.status, 'disabled');
  });

  test('sync replaces changed servers, closes removed and disabled ones, leaves the rest alone', async () => {
    const a = stdio('a');
    const b = stdio('b');
    const pool = newPool([a, b]);
    await pool.forUser(tester).tools();
    const oldA = connection(pool, 'a');
    const connB = connection(pool, 'b');
    const pidA = pidOf(await oldA.getClient());
    const pidB = pidOf(await connB.getClient());

    const a2 = { ...a, timeoutMs: 20_000 };
    pool.sync([a2, b]);
    assert.notEqual(connection(pool, 'a'), oldA);
    assert.equal(connection(pool, 'b'), connB);
    await exited(pidA); // the old child of "a"
    assert.ok(alive(pidB), '"b" is untouched');
    assert.equal(text(await pool.forUser(tester).callTool('a', 'add', { a: 1, b: 2 })), '3');
    const pidA2 = pidOf(await connection(pool, 'a').getClient());

    // The default apps setting written out (what the admin form saves) is no change: no restart.
    // (written first, as a parsed body may order it: key order is no change either)
    const a3 = { apps: { enabled: true, permissions: [] }, ...a2 };
    pool.sync([a3, b]);
    assert.equal(pidOf(await connection(pool, 'a').getClient()), pidA2);

    pool.sync([a3]);
    assert.equal(pool.get('b'), undefined);
    await exited(pidB);
    assert.ok(alive(pidA2), '"a" is untouched');
    await assert.rejects(pool.forUser(tester).callTool('b', 'add', { a: 1, b: 2 }), /not available/);

    pool.sync([{ ...a3, enabled: false }]);
    await exited(pidA2); // the disabled child
    assert.equal(pool.statuses()[0]?.status, 'disabled');
    await assert.rejects(
      pool.forUser(tester).callTool('a', 'add', { a: 1, b: 2 }),
      (err) => err instanceof McpFailure && /"a" is not available/.test(err.message),
    );
    assert.deepEqual(await pool.forUser(tester).tools(), []);
  });
});
