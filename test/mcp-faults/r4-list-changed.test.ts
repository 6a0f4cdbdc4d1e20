import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { JSONRPCMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  connectionOf,
  exited,
  isFailure,
  newPool,
  pidOf,
  report,
  sentMessage,
  spySent,
  stderrLine,
  stdio,
  text,
  tester,
} from '@/test/mcp-faults/harness';
import type { McpPool } from '@/lib/mcp/pool';
import { definitionHash, toolDefinition } from '@/lib/mcp/tool-definition';

// R4: tools/list_changed for add, remove and schema change, including one during an in-flight
// tools/list, one while disconnected, and a failing tools/list. Safe state: the catalog converges
// to the latest state, removed tools can't be called, the last good catalog is kept and the list
// retried on failure, and changed tools are detectable (their definition hash changes; the app
// then flags them and asks again, see db/queries/mcp-tools).

const dir = mkdtempSync(join(tmpdir(), 'r4-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type ToolHashes = Map<string, string>;

/**
 * A pool whose observer keeps every tool list it is told of, as name → definition hash; `listed(check)`
 * resolves once the latest list passes `check` (at once, or when such a list arrives).
 */
function observed(env: Record<string, string> = {}) {
  const lists: ToolHashes[] = [];
  const waiting: Array<{ check: (list: ToolHashes) => boolean; resolve: () => void }> = [];
  const latest = () => lists.at(-1) ?? new Map<string, string>();
  const pool = newPool([stdio('cat', env)]);
  pool.toolsObserver = (_server, tools: Tool[]) => {
    const list = new Map(tools.map((t) => [t.name, definitionHash(toolDefinition(t))]));
    lists.push(list);
    for (const w of waiting.filter((w) => w.check(list))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  const listed = (check: (list: ToolHashes) => boolean) =>
    check(latest()) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ check, resolve }));
  return { pool, conn: connectionOf(pool, 'cat'), lists, latest, listed };
}
const isToolsList = (m: JSONRPCMessage) => 'method' in m && m.method === 'tools/list';
async function catalog(pool: McpPool): Promise<string[]> {
  const [entry] = await pool.forUser(tester).tools(['cat']);
  assert.ok(
    entry && 'tools' in entry,
    `the catalog has the server's tools${entry && 'error' in entry ? `: ${entry.error.message}` : ''}`,
  );
  return entry.tools.map((t) => t.name).sort();
}

test('R4 list_changed for add, remove and schema change: the catalog converges, removed tools cannot be called, changed tools get a new hash', async () => {
  const { pool, conn, lists, latest, listed } = observed();
  await catalog(pool);
  const before = latest();
  const sent = await spySent(conn);

  await pool.forUser(tester).callTool('cat', 'retool', {
    add: ['fresh'],
    remove: ['delete_all'],
    describe: [{ name: 'echo', description: 'Echo, v2' }],
    reschema: ['add'],
  });
  const changedAt = performance.now();
  await listed((list) => list.has('fresh') && !list.has('delete_all'));
  report('R4', 'add/remove/schema change → catalog converged', performance.now() - changedAt);
  const names = await catalog(pool);
  assert.ok(names.includes('fresh') && !names.includes('delete_all'));
  const now = latest();
  const changed = [...now]
    .filter(([name, hash]) => before.has(name) && before.get(name) !== hash)
    .map(([name]) => name);
  assert.deepEqual(
    changed.sort(),
    ['add', 'echo'],
    'exactly the re-described and re-schemed tools hash differently',
  );
  assert.ok(lists.length >= 2);

  await assert.rejects(
    pool.forUser(tester).callTool('cat', 'delete_all', {}),
    isFailure('protocol', /does not offer/),
  );
  const calls = sent
    .filter((m) => 'method' in m && m.method === 'tools/call')
    .map((m) => ('params' in m ? m.params?.name : ''));
  assert.ok(!calls.includes('delete_all'), 'the removed tool was never sent to the server');
  assert.equal(text(await pool.forUser(tester).callTool('cat', 'fresh', {})), 'fresh ran');
});

test('R4 a list_changed during an in-flight tools/list is not lost', async () => {
  const { pool, conn, lists, latest, listed } = observed();
  await catalog(pool);
  const sent = await spySent(conn);
  // The next tools/list is answered (with the list as it was when asked) only after the next retool has
  // sent its list_changed: that notification surely arrives while the list is in flight.
  await pool.forUser(tester).callTool('cat', 'list_fault', { hold: 1 });
  await pool.forUser(tester).callTool('cat', 'retool', { add: ['first'] });
  await sentMessage(sent, isToolsList); // the re-list is out, and held
  const changedAt = performance.now();
  await pool.forUser(tester).callTool('cat', 'retool', { add: ['second'] });
  await listed((list) => list.has('second'));
  report('R4', 'change during an in-flight tools/list → catalog converged', performance.now() - changedAt);
  assert.ok(latest().has('first'));
  assert.ok(
    lists.every((list) => !list.has('first') || list.has('second')),
    'the stale answer of the held tools/list never became the catalog',
  );
  const names = await catalog(pool);
  assert.ok(names.includes('first') && names.includes('second'));
});

test('R4 a failing tools/list keeps the last good catalog and is retried until it converges', async () => {
  const { pool, conn, latest } = observed();
  const good = await catalog(pool);
  await pool.forUser(tester).callTool('cat', 'list_fault', { fail: 2 });
  await pool.forUser(tester).callTool('cat', 'retool', { add: ['third'] });
  const changedAt = performance.now();
  await stderrLine(conn, /tools\/list failing on purpose/); // the re-list failed
  // Catalog requests retry the re-list (it fails once more, within its backoff): until then, and while
  // it fails, each one is served the last good catalog.
  const failures = () => conn.stderr.tail().filter((l) => /tools\/list failing on purpose/.test(l)).length;
  const deadline = performance.now() + 10_000;
  while (failures() < 2) {
    assert.deepEqual(await catalog(pool), good);
    assert.ok(performance.now() < deadline, 'catalog requests never retried the failing tools/list');
    await sleep(50);
  }
  assert.equal(conn.stderr.tail().filter((l) => /tools\/list failing on purpose/.test(l)).length, 2);
  assert.equal(conn.status().status, 'connected', 'a failing tools/list does not take the server down');
  // The one after that succeeds.
  const names = await catalog(pool);
  report('R4', 'failing tools/list → catalog converged on retry', performance.now() - changedAt);
  assert.ok(names.includes('third'));
  assert.ok(latest().has('third'));
});

test('R4 tools changed while disconnected are picked up on reconnect', async () => {
  const file = join(dir, 'tools.json');
  const { pool, conn, latest } = observed({ TEST_MCP_TOOLS_FILE: file });
  assert.ok((await catalog(pool)).includes('echo'));
  const pid = await pidOf(conn);
  process.kill(pid, 'SIGKILL');
  await exited(pid);
  assert.equal(conn.status().status, 'error', 'the server is seen gone');
  // While nobody is connected the server is "upgraded": a tool appears, another disappears.
  writeFileSync(file, JSON.stringify({ add: ['while_away'], remove: ['echo'] }));
  const reconnectAt = performance.now();
  const names = await catalog(pool);
  report(
    'R4',
    'changed while disconnected → catalog converged on reconnect',
    performance.now() - reconnectAt,
  );
  assert.ok(names.includes('while_away') && !names.includes('echo'), `catalog: ${names}`);
  assert.ok(latest().has('while_away'));
  await assert.rejects(
    pool.forUser(tester).callTool('cat', 'echo', { message: 'x' }),
    isFailure('protocol', /does not offer/),
  );
});
