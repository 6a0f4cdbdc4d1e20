import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_WAITING_PER_CALL } from '@/lib/mcp/active-calls';
import { DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';

// A server asks the user 100 questions at once during one call: every one became a form in the chat
// (and a request held in memory, with its schema, until the call ended). At most MAX_WAITING_PER_CALL
// wait for the user at once; the server is refused the rest, and may ask again once one is answered.

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const conn = new McpConnection(
  {
    name: 'asker',
    transport: 'stdio',
    allow: ['*'],
    scope: 'shared',
    userValues: [],
    enabled: true,
    timeoutMs: 60_000,
    command: process.execPath,
    args: [FIXTURE, 'stdio'],
    env: { TEST_MCP_ATTACK_TOOLS: '1' },
    cwd: null,
  },
  { ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 10_000 },
);
after(() => conn.close());

test('a flood of elicitations during one call: a few wait for the user, the rest are refused', async () => {
  const COUNT = 100;
  const held: Array<(r: ElicitResult) => void> = [];
  let refused = 0;
  let settle!: () => void;
  const allSeen = new Promise<void>((resolve) => (settle = resolve));
  const seen = () => held.length + refused === COUNT && settle();
  const call = conn.callTool(
    'ask_many',
    { count: COUNT },
    {
      owner: 'u1',
      // The server reports each refusal as progress: once every question is held or refused, answer.
      onProgress: (p) => {
        refused = p.progress;
        seen();
      },
      hooks: {
        elicit: () =>
          new Promise<ElicitResult>((resolve) => {
            held.push(resolve);
            seen();
          }),
      },
    },
  );
  await allSeen;
  assert.equal(held.length, MAX_WAITING_PER_CALL, `${held.length} forms shown at once`);
  for (const answer of held) answer({ action: 'decline' });
  const result = await call;
  assert.deepEqual(result.content, [
    { type: 'text', text: `answered ${MAX_WAITING_PER_CALL}, refused ${COUNT - MAX_WAITING_PER_CALL}` },
  ]);
});
