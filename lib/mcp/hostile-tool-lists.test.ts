import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';
import { McpFailure } from '@/lib/mcp/errors';
import { McpPool } from '@/lib/mcp/pool';
import { MAX_TOOLS, RELIST_EVERY_MS } from '@/lib/mcp/tool-cache';
import type { StdioConfig } from '@/lib/schemas/mcp';
import { estimateToolTokens } from '@/lib/schemas/tool-budget';

// A server lists a tool whose input schema nests 20,000 levels deep (about 700 KB). JSON.parse takes
// it, but JSON.stringify (the tool catalog's token estimate, the model request) throws on it: every
// user's tool catalog and every chat turn with that server failed. Such a tool is left out of the
// list, the admin is told on the server's log, and the server's other tools work.

const tester = { id: 'tester', email: 'tester@example.com', role: 'admin' };
const FIXTURE = fileURLToPath(new URL('../../test/app-faults/fixtures/bad-mcp-server.mjs', import.meta.url));

const pool = new McpPool({ ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 10_000 });
const bad = (name: string, env: Record<string, string>): StdioConfig => ({
  name,
  transport: 'stdio',
  allow: ['*'],
  scope: 'shared',
  userValues: [],
  enabled: true,
  timeoutMs: 10_000,
  command: process.execPath,
  args: [FIXTURE],
  env,
  cwd: null,
});
pool.sync([bad('deep', { BAD_DEEP_SCHEMA: '20000' }), bad('many', { BAD_MANY_TOOLS: '20000' })]);
after(() => pool.closeAll());

test('a tool whose definition nests too deep is left out (the admin is told); the rest of the server works', async () => {
  const [entry] = await pool.forUser(tester).tools(['deep']);
  assert.ok(entry && 'tools' in entry, 'the server lists its tools');
  for (const tool of entry.tools)
    assert.ok(estimateToolTokens(tool) > 0, `${tool.name} can be sent to a model`);
  const names = entry.tools.map((t) => t.name);
  assert.ok(names.includes('ok'));
  assert.ok(!names.includes('deep'), 'the deep tool is left out');

  const notes = pool.get('deep')?.logs.list() ?? [];
  assert.ok(
    notes.some((n) => n.logger === 'host' && /"deep".*nests deeper than/.test(n.text)),
    'the admin reads why on the server log',
  );
  await assert.rejects(
    pool.forUser(tester).callTool('deep', 'deep', { a: {} }),
    (err) => err instanceof McpFailure && /does not offer a tool "deep"/.test(err.message),
  );
  const ok = await pool.forUser(tester).callTool('deep', 'ok', {});
  assert.deepEqual(ok.content, [{ type: 'text', text: 'ok' }]);
});

// One page listing 20,000 tools: the 10,000-tool bound held only across pages (every tool of a page was
// kept, and each is a row of the database, a catalog entry, a tool of every turn). The first MAX_TOOLS
// are kept, the admin is told.
test('a server listing more than MAX_TOOLS tools on one page: the first MAX_TOOLS are kept, the admin is told', async () => {
  const [entry] = await pool.forUser(tester).tools(['many'], 30_000);
  assert.ok(
    entry && 'tools' in entry,
    `the server lists its tools: ${entry && 'error' in entry ? entry.error : ''}`,
  );
  assert.equal(entry.tools.length, MAX_TOOLS);
  const notes = pool.get('many')?.logs.list() ?? [];
  assert.ok(notes.some((n) => n.logger === 'host' && /Only the first 10000 tools/.test(n.text)));
  const ok = await pool.forUser(tester).callTool('many', 'ok', {});
  assert.deepEqual(ok.content, [{ type: 'text', text: 'ok' }]);
});

// The server sends tools/list_changed every 10 ms, 200 times (during a call): each one had the host
// list its tools again at once (~120 listings in 2 s, each a request, a parse and a database check of
// every tool). With the host's clock standing still, it lists once for the flood (and redoes a listing
// a change overtook, at most 3 times); a change after the last listing is read when a second has passed.
test('a list_changed flood: the tools are listed again at once, then at most once a second', async (t) => {
  const conn = new McpConnection(bad('relist', { RELIST_FLOOD: '200' }), {
    ...DEFAULT_CONNECTION_OPTIONS,
    connectTimeoutMs: 10_000,
  });
  t.after(() => conn.close());
  await conn.listTools();
  const before = conn.listRequests;
  t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.now() });
  const sent = await conn.callTool('relist_flood', {});
  assert.deepEqual(sent.content, [{ type: 'text', text: 'sent 200' }]);
  await conn.listTools(); // a listing under way has ended (or one starts: the list changed since)
  const during = conn.listRequests - before;
  assert.ok(during >= 1 && during <= 5, `${during} listings during the flood`);
  t.mock.timers.tick(RELIST_EVERY_MS); // the held re-listing, if a change came after the last listing
  assert.ok((await conn.listTools()).some((tool) => tool.name === 'relist_flood'));
  assert.ok(conn.listRequests - before <= during + 1);
});
