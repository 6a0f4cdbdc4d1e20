/**
 * R7 (SECURITY-CASES.md), the MCP half, through the real app: a stdio server (test/app-faults/fixtures/
 * bad-mcp-server.mjs) writes non-JSON lines to stdout, sends invalid UTF-8, violates its tools'
 * outputSchema or leaves out structuredContent, and dies mid-call. Safe state: junk is tolerated or the
 * connection closes cleanly, schema violations become tool errors, and the app process never exits.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  type Auth,
  badServer,
  chat,
  chatBody,
  conversation,
  newId,
  request,
  type Stack,
  startStack,
  streamedText,
  toolParts,
  withDb,
} from './harness';

let stack: Stack;
let auth: Auth;
let serverPid = 0;

before(async () => {
  ({ stack, admin: auth } = await startStack(
    { bad: badServer() },
    { name: 'R7 Admin', email: 'r7-mcp@example.com', password: 'r7-password-1' },
    { liftLimits: false },
  ));
  serverPid = stack.serverPid();
});
after(() => stack?.stop());

/** One turn that calls the given tools (exposed names); returns the streamed text and the stored tool parts. */
async function turnWith(...tools: string[]) {
  const id = newId('r7-mcp');
  const markers = tools.map((t) => `[[tool:${t}]]`).join(' ');
  const res = await chat(stack, auth, chatBody(id, newId('m'), `Call ${markers}`));
  assert.equal(res.status, 200, res.body.slice(0, 300));
  assert.match(res.body, /"type":"finish"/, 'the turn finished');
  assert.doesNotMatch(res.body, /"type":"error"/, 'no stream error');
  const { messages } = await conversation(stack, auth, id);
  const answer = messages.at(-1);
  assert.equal(answer?.role, 'assistant');
  assert.equal(answer?.metadata?.interrupted, undefined, 'the answer is complete');
  const outcomes = withDb(stack, (db) =>
    db.prepare('select tool, outcome, error from tool_calls where conversation_id = ? order by tool').all(id),
  ) as Array<{ tool: string; outcome: string; error: string | null }>;
  return { text: streamedText(res.body), parts: toolParts(answer), outcomes };
}

/** The app is the same process as at the start, and healthy. */
async function assertAppUp() {
  assert.ok(stack.appAlive(), `the app exited:\n${stack.appLog()}`);
  assert.equal(stack.serverPid(), serverPid, 'still the same server process');
  assert.equal((await request(`${stack.appUrl}/api/health`, 'GET')).status, 200);
}

test('R7: MCP server writes non-JSON lines, stray JSON and a reply to an unknown id to stdout: junk tolerated, the call answers', async () => {
  const { text, parts, outcomes } = await turnWith('bad__junk');
  assert.equal(parts[0]?.state, 'output-available', JSON.stringify(parts));
  assert.equal(text, 'Tool results: junk survived');
  assert.deepEqual(
    outcomes.map((o) => [o.tool, o.outcome]),
    [['junk', 'ok']],
  );
  await assertAppUp();
});

test('R7: MCP server sends invalid UTF-8 (a junk line, and bytes inside a result): tolerated, shown as U+FFFD', async () => {
  const { text, parts } = await turnWith('bad__bad_utf8');
  assert.equal(parts[0]?.state, 'output-available', JSON.stringify(parts));
  assert.match(text, /^Tool results: before\uFFFD+after$/);
  await assertAppUp();
});

test('R7: a result that violates the outputSchema, and one without structuredContent, become tool errors', async () => {
  const { text, parts, outcomes } = await turnWith('bad__wrong_output', 'bad__no_structured');
  const byTool = new Map(parts.map((p) => [(p as { toolName?: string }).toolName, p]));
  const wrong = byTool.get('bad__wrong_output');
  const missing = byTool.get('bad__no_structured');
  assert.equal(wrong?.state, 'output-error', JSON.stringify(wrong));
  assert.match(String(wrong?.errorText), /output schema/i);
  assert.equal(missing?.state, 'output-error', JSON.stringify(missing));
  assert.match(String(missing?.errorText), /structured content/i);
  assert.deepEqual(
    outcomes.map((o) => [o.tool, o.outcome]),
    [
      ['no_structured', 'error'],
      ['wrong_output', 'error'],
    ],
  );
  assert.match(text, /^Tool results: .*output schema/i, 'the model got the errors and answered');
  await assertAppUp();
});

test('R7: MCP server writes invalid UTF-8 and exits mid-call: the call is a tool error, the next call reconnects', async () => {
  const died = await turnWith('bad__die_mid_call');
  assert.equal(died.parts[0]?.state, 'output-error', JSON.stringify(died.parts));
  assert.deepEqual(
    died.outcomes.map((o) => [o.tool, o.outcome]),
    [['die_mid_call', 'error']],
  );
  const again = await turnWith('bad__ok');
  assert.equal(again.text, 'Tool results: ok', 'a fresh connection serves the next call');
  await assertAppUp();
});
