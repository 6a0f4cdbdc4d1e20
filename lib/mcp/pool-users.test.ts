// Per-user connections and allow lists in the pool, with real stdio children (issue 15 §1).
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import type { Principal } from '@/lib/access';
import { DEFAULT_CONNECTION_OPTIONS } from '@/lib/mcp/connection';
import { McpFailure } from '@/lib/mcp/errors';
import { McpPool } from '@/lib/mcp/pool';
import type { StdioConfig } from '@/lib/schemas/mcp';

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const alice: Principal = { id: 'u-alice', email: 'alice@example.com', role: 'user' };
const bob: Principal = { id: 'u-bob', email: 'bob@example.com', role: 'user' };
const root: Principal = { id: 'u-root', email: 'root@example.com', role: 'admin' };

const server = (name: string, extra: Partial<StdioConfig> = {}): StdioConfig => ({
  name,
  transport: 'stdio',
  allow: ['*'],
  scope: 'user',
  userValues: [],
  enabled: true,
  timeoutMs: 10_000,
  command: process.execPath,
  args: [FIXTURE, 'stdio'],
  env: { TEST_MCP_ATTACK_TOOLS: '1' },
  cwd: null,
  ...extra,
});

const pools: McpPool[] = [];
after(() => Promise.all(pools.map((p) => p.closeAll())));
function newPool(configs: StdioConfig[]): McpPool {
  const pool = new McpPool({ ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 10_000 });
  pools.push(pool);
  pool.sync(configs);
  return pool;
}

/** The process facts of the child a user's call reaches. */
async function processOf(pool: McpPool, who: Principal, name: string) {
  const result = await pool.forUser(who).callTool(name, 'process_info', {});
  const first = result.content[0];
  assert.ok(first?.type === 'text');
  const info = JSON.parse(first.text) as { pid: number; cwd: string; env: Record<string, string> };
  return info;
}

describe('scope', () => {
  test('a per-user server gives each user their own child; a shared one, one child for all', async () => {
    const pool = newPool([server('mine'), server('ours', { scope: 'shared' })]);
    const [a1, b1, a2] = [
      await processOf(pool, alice, 'mine'),
      await processOf(pool, bob, 'mine'),
      await processOf(pool, alice, 'mine'),
    ];
    assert.notEqual(a1.pid, b1.pid, 'two users → two processes');
    assert.equal(a1.pid, a2.pid, 'one user keeps their process');
    const [sa, sb] = [await processOf(pool, alice, 'ours'), await processOf(pool, bob, 'ours')];
    assert.equal(sa.pid, sb.pid, 'shared → one process');
    assert.deepEqual(
      pool
        .userConnections('mine')
        .map((c) => c.user.email)
        .sort(),
      ['alice@example.com', 'bob@example.com'],
    );
    assert.deepEqual(pool.userConnections('ours'), []);
  });

  test("the pool's user setup gives each user's child its own folder and values", async () => {
    const base = mkdtempSync(join(tmpdir(), 'pool-users-'));
    const pool = newPool([server('folders', { userValues: ['TOKEN'] })]);
    pool.userSetup = (config, who) => {
      if (config.transport !== 'stdio') return { config };
      if (who.id === bob.id) throw new McpFailure('auth', 'Server "folders" needs your TOKEN.');
      return { config: { ...config, cwd: base, env: { ...config.env, TOKEN: `token-of-${who.id}` } } };
    };
    const info = await processOf(pool, alice, 'folders');
    assert.equal(realpathSync(info.cwd), realpathSync(base));
    assert.equal(info.env.TOKEN, 'token-of-u-alice');
    await assert.rejects(pool.forUser(bob).callTool('folders', 'process_info', {}), /needs your TOKEN/);
    assert.equal(pool.forUser(bob).status('folders')?.status, 'error');
    assert.equal(pool.forUser(bob).status('folders')?.lastError?.kind, 'auth');
  });

  test("a failure's logged detail masks the values the user's connection started with", async () => {
    const key = 'user-api-key-4f9d2c1a7e';
    const pool = newPool([server('masked', { userValues: ['API_KEY'] })]);
    // As the app's setup does: the user's stored values come in when the connection starts.
    pool.userSetup = (config) =>
      config.transport === 'stdio'
        ? { config, prepare: async () => ({ ...config, env: { ...config.env, API_KEY: key } }) }
        : { config };
    assert.equal((await processOf(pool, alice, 'masked')).env.API_KEY, key);
    // A server answering with the key in its error (an API's "invalid key: …"): logged and kept masked.
    const failure = pool.forUser(alice).publicFailure('masked', new Error(`Invalid API key: ${key}`));
    assert.equal(failure.detail.includes(key), false, failure.detail);
    assert.equal(failure.message.includes(key), false);
  });

  test('closing one user’s connection leaves the others running', async () => {
    const pool = newPool([server('solo')]);
    const a = await processOf(pool, alice, 'solo');
    const b = await processOf(pool, bob, 'solo');
    await pool.closeUser('solo', alice.id);
    assert.notEqual((await processOf(pool, alice, 'solo')).pid, a.pid, 'alice gets a new process');
    assert.equal((await processOf(pool, bob, 'solo')).pid, b.pid, "bob's is untouched");
  });
});

describe('caps', () => {
  test('a user at the per-user cap gets a clear error, and so does everyone at the total cap', async () => {
    const pool = newPool([server('c1'), server('c2'), server('c3')]);
    pool.limits = { perUser: 2, total: 3 };
    await processOf(pool, alice, 'c1');
    await processOf(pool, alice, 'c2');
    await assert.rejects(
      pool.forUser(alice).callTool('c3', 'process_info', {}),
      /most allowed per user \(2\)/,
    );
    await processOf(pool, bob, 'c1');
    await assert.rejects(pool.forUser(root).callTool('c1', 'process_info', {}), /its limit \(3\)/);
    // A connection already live is no new one: alice's own servers keep working.
    await processOf(pool, alice, 'c1');
  });
});

describe('allow lists', () => {
  test('to a user outside the allow list the server does not exist, on every path', async () => {
    const pool = newPool([
      server('staff', { allow: ['admin', 'bob@example.com'], scope: 'shared' }),
      server('open', { scope: 'shared' }),
    ]);
    const names = (who: Principal) =>
      pool
        .forUser(who)
        .servers()
        .map((c) => c.name);
    assert.deepEqual(names(alice), ['open']);
    assert.deepEqual(names(bob), ['staff', 'open']);
    assert.deepEqual(names(root), ['staff', 'open']);
    assert.deepEqual(
      (await pool.forUser(alice).tools()).map((t) => t.server),
      ['open'],
      'absent from the catalog and the model’s tools',
    );
    assert.equal(pool.forUser(alice).connection('staff'), undefined);
    assert.equal(pool.forUser(alice).status('staff'), undefined);
    // A call the model invents, or a replayed approval, is refused like a server that does not exist.
    await assert.rejects(
      pool.forUser(alice).callTool('staff', 'echo', { text: 'x' }),
      (err: unknown) => err instanceof McpFailure && /not available/.test(err.message),
    );
    assert.equal((await processOf(pool, bob, 'staff')).pid > 0, true);
    // The admin pages still inspect it.
    assert.ok(pool.connectionFor('staff', alice, true));
  });

  test('a disabled server exists for no one', async () => {
    const pool = newPool([server('off', { enabled: false })]);
    assert.deepEqual(pool.forUser(root).servers(), []);
    assert.equal(pool.forUser(root).connection('off'), undefined);
  });
});
