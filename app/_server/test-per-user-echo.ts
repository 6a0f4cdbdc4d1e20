// Test helpers for the per-user tool tests (tool-policy, tool-review): a per-user stdio server whose child
// describes `echo` for each user's own account (as if told by their own key), through the app's pool
// observer and tool policies, on a migrated SQLite file of the calling test file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { observeTools, toolPolicies } from '@/app/_server/tool-policy';
import { getDb } from '@/db/client';
import { createMcpServer } from '@/db/queries/mcp-servers';
import { user } from '@/db/tables';
import type { Principal } from '@/lib/access';
import { getPool } from '@/lib/mcp/pool';
import { resetProcessState } from '@/lib/process-state';

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
export const SERVER = 'own-accounts';
export const described = (who: Principal) => `Echo, in the account of ${who.id}`;
/** The `retool` arguments that describe `echo` anew. */
export const describing = (description: string) => ({ describe: [{ name: 'echo', description }] });

/**
 * The server for the calling test file, with `users` stored; `refuse` may throw for a user whose own
 * connection is refused (as when a value each user supplies was never given). `serverId` once started.
 */
export function startPerUserEcho(
  users: Array<Principal & { role: 'admin' | 'user' }>,
  refuse: (who: Principal) => void = () => {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'per-user-echo-'));
  const saved = { ...process.env };
  const started = { serverId: '' };
  /** The observer's work for the listings so far (the pool does not wait for it). */
  const observing: Array<Promise<void>> = [];
  before(async () => {
    resetProcessState();
    process.env.DATABASE_PATH = join(dir, 'app.db');
    const db = getDb();
    for (const who of users)
      await db.insert(user).values({ id: who.id, name: who.id, email: who.email, role: who.role });
    const config = {
      name: SERVER,
      transport: 'stdio' as const,
      allow: ['*'],
      scope: 'user' as const,
      userValues: [],
      enabled: true,
      timeoutMs: 10_000,
      command: process.execPath,
      args: [FIXTURE, 'stdio'],
      env: {},
      cwd: null,
    };
    const created = await createMcpServer(db, config);
    assert.ok(created);
    started.serverId = created.id;
    const pool = getPool();
    pool.userSetup = (c, who) => {
      refuse(who);
      const file = join(dir, `${who.id}.json`);
      writeFileSync(file, JSON.stringify(describing(described(who))));
      return { config: c.transport === 'stdio' ? { ...c, env: { TEST_MCP_TOOLS_FILE: file } } : c };
    };
    pool.toolsObserver = (server, tools, who) => void observing.push(observeTools(server, tools, who));
    pool.sync([config]);
  });
  after(async () => {
    await getPool().closeAll();
    resetProcessState();
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * `who` gets a fresh tool list from their own server (`changes` applied by it first, then its
   * list_changed makes the connection list again); resolves to their echo once the list is recorded.
   */
  async function listAgain(who: Principal, changes: Record<string, unknown> = {}) {
    const pool = getPool().forUser(who);
    await pool.callTool(SERVER, 'retool', changes);
    const [entry] = await pool.tools([SERVER]);
    const recorded = observing.splice(0);
    assert.ok(recorded.length > 0, 'a fresh list was told to the observer');
    await Promise.all(recorded);
    assert.ok(entry && 'tools' in entry, 'the server lists its tools');
    const echo = entry.tools.find((t) => t.name === 'echo');
    assert.ok(echo);
    return echo;
  }

  /** Whether `echo` counts as changed for each user, each asked with the tool as they are shown it. */
  async function changedFor(...asked: Principal[]) {
    const marks: Record<string, boolean> = {};
    for (const who of asked) {
      const [entry] = await getPool().forUser(who).tools([SERVER]);
      const echo = entry && 'tools' in entry ? entry.tools.find((t) => t.name === 'echo') : undefined;
      assert.ok(echo);
      marks[who.id] = (await toolPolicies(who)).of(SERVER, echo).changed;
    }
    return marks;
  }

  return { started, listAgain, changedFor };
}
