import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ToolExecutionOptions } from 'ai';
import { MAX_PROGRESS_MESSAGE } from '@/lib/chat/progress-throttle';
import { buildToolSet } from '@/lib/chat/tools';
import { DEFAULT_CONNECTION_OPTIONS } from '@/lib/mcp/connection';
import { McpPool } from '@/lib/mcp/pool';

// A server floods a call with progress notifications (1,000 at once, each with a 5,000-character
// message): every one became a chunk of the answer's stream to the browser. They reach the tool card at
// most one per 100 ms (the latest held meanwhile, and passed on when the call ends), messages cut.

const tester = { id: 'tester', email: 'tester@example.com', role: 'admin' };
const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const pool = new McpPool({ ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 10_000 });
pool.sync([
  {
    name: 'flood',
    transport: 'stdio',
    allow: ['*'],
    scope: 'shared',
    userValues: [],
    enabled: true,
    timeoutMs: 30_000,
    command: process.execPath,
    args: [FIXTURE, 'stdio'],
    env: { TEST_MCP_ATTACK_TOOLS: '1' },
    cwd: null,
  },
]);
after(() => pool.closeAll());

test('a progress flood reaches the tool card as its first update and the latest one, messages cut', async (t) => {
  const catalog = await pool.forUser(tester).tools();
  const progress: Progress[] = [];
  const { tools } = buildToolSet({
    catalog,
    policy: () => ({ enabled: true, approval: 'auto' }),
    call: (server, name, args, opts) => pool.forUser(tester).callTool(server, name, args, opts),
    record: () => {},
    onProgress: (_id, p) => progress.push(p),
  });
  // The host's clock and timers stand still while the flood arrives: all of it falls within one window.
  t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.now() });
  const options: ToolExecutionOptions<Record<string, unknown>> = {
    toolCallId: 'c1',
    messages: [],
    context: {},
  };
  await tools.flood__provoke?.execute?.({ count: 1000, secret: 'x'.repeat(5000) }, options);
  // The first, then the latest one held when the call ended (the SDK drops any that come after the result).
  assert.equal(progress.length, 2, `${progress.length} updates passed on`);
  assert.equal(progress[0]?.progress, 1);
  assert.ok((progress[1]?.progress ?? 0) > 1);
  assert.ok(progress.every((p) => (p.message?.length ?? 0) <= MAX_PROGRESS_MESSAGE + 1));
});
