import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type ConnectionOptions, DEFAULT_CONNECTION_OPTIONS } from '@/lib/mcp/connection';
import { McpFailure } from '@/lib/mcp/errors';
import { McpPool } from '@/lib/mcp/pool';
import type { McpServerConfig, StdioConfig } from '@/lib/schemas/mcp';

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const MISSING = '/nonexistent/binary';
const OPTS: ConnectionOptions = {
  ...DEFAULT_CONNECTION_OPTIONS,
  connectTimeoutMs: 10_000,
  baseBackoffMs: 200,
  maxBackoffMs: 2_000,
};

/** Counts spawn attempts per command (the SDK spawns through child_process.spawn). */
const spawned = new Map<string, number>();
const realSpawn = childProcess.spawn;
childProcess.spawn = ((...args: Parameters<typeof realSpawn>) => {
  const command = String(args[0]);
  spawned.set(command, (spawned.get(command) ?? 0) + 1);
  return realSpawn(...args);
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
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
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
    const [first] = await pool.tools();
    assert.ok(first && 'tools' in first && first.tools.some((t) => t.name === 'add'));
    const conn = connection(pool, 'a');
    assert.equal(conn.listRequests, 1);
    for (let i = 0; i < 3; i++) await pool.tools();
    await pool.tools(['a']);
    assert.equal(conn.listRequests, 1);
    assert.equal(text(await pool.callTool('a', 'add', { a: 40, b: 2 })), '42');
    assert.equal(conn.listRequests, 1);
  });

  test('builtin servers run in memory', async () => {
    const pool = newPool([builtin('calculator'), builtin('time')]);
    const catalog = await pool.tools();
    assert.deepEqual(
      catalog.map((s) => [s.server, 'tools' in s && s.tools.length > 0]),
      [
        ['calculator', true],
        ['time', true],
      ],
    );
    assert.match(
      text(await pool.callTool('calculator', 'evaluate', { expression: '1/3 + 1/6' })),
      /1\/2|0\.5/,
    );
  });

  test('a missing command fails with ENOENT, then backs off without respawning', async () => {
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
    await assert.rejects(pool.callTool('bad', 'add', {}), /next retry/);
    assert.equal(spawned.get(MISSING), 1, 'no spawn during the backoff');

    await until(() => conn.status().retryAt === null, 1000, 'the backoff to end');
    await assert.rejects(conn.getClient(), /ENOENT/);
    assert.equal(spawned.get(MISSING), 2, 'a new attempt after the backoff');
    const wait = Date.parse(conn.status().retryAt ?? '') - Date.now();
    assert.ok(wait > 250 && wait <= 400, `the second backoff doubles (${wait} ms)`);
  });

  test('a broken server is reported without hiding or delaying the others', async () => {
    const pool = newPool([
      stdio('good'),
      stdio('missing', { command: MISSING, args: [] }),
      stdio('dies', { env: { TEST_MCP_EXIT_AT_START: '1' } }),
      stdio('off', { enabled: false }),
    ]);
    const started = Date.now();
    const catalog = await pool.tools();
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 3000, `took ${elapsed} ms (the wait limit is 5 s)`);
    const byName = new Map(catalog.map((s) => [s.server, s]));
    assert.deepEqual([...byName.keys()].sort(), ['dies', 'good', 'missing']);
    const good = byName.get('good');
    assert.ok(good && 'tools' in good && good.tools.some((t) => t.name === 'echo'));
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
    await pool.tools();
    const oldA = connection(pool, 'a');
    const connB = connection(pool, 'b');
    const pidA = pidOf(await oldA.getClient());
    const pidB = pidOf(await connB.getClient());

    const a2 = { ...a, timeoutMs: 20_000 };
    pool.sync([a2, b]);
    assert.notEqual(connection(pool, 'a'), oldA);
    assert.equal(connection(pool, 'b'), connB);
    await until(() => !alive(pidA), 5000, 'the old child of "a" to exit');
    assert.ok(alive(pidB), '"b" is untouched');
    assert.equal(text(await pool.callTool('a', 'add', { a: 1, b: 2 })), '3');
    const pidA2 = pidOf(await connection(pool, 'a').getClient());

    pool.sync([a2]);
    assert.equal(pool.get('b'), undefined);
    await until(() => !alive(pidB), 5000, 'the child of "b" to exit');
    assert.ok(alive(pidA2), '"a" is untouched');
    await assert.rejects(pool.callTool('b', 'add', { a: 1, b: 2 }), /not available/);

    pool.sync([{ ...a2, enabled: false }]);
    await until(() => !alive(pidA2), 5000, 'the disabled child to exit');
    assert.equal(pool.statuses()[0]?.status, 'disabled');
    await assert.rejects(
      pool.callTool('a', 'add', { a: 1, b: 2 }),
      (err) => err instanceof McpFailure && /"a" is not available/.test(err.message),
    );
    assert.deepEqual(await pool.tools(), []);
  });
});
