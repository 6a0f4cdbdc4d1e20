import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import type { CallToolResult, Progress, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolExecutionOptions, ToolSet } from 'ai';
import {
  type BuildToolsInput,
  buildToolSet,
  capResult,
  MAX_RESULT_BYTES,
  type ToolCallRecord,
} from '@/lib/chat/tools';
import { DEFAULT_CONNECTION_OPTIONS } from '@/lib/mcp/connection';
import { McpFailure } from '@/lib/mcp/errors';
import { McpPool } from '@/lib/mcp/pool';

/** Every server here is open to everyone; the pool still needs to know who is asking. */
const tester = { id: 'tester', email: 'tester@example.com', role: 'admin' };

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));

const textResult = (text: string, isError?: boolean): CallToolResult => ({
  content: [{ type: 'text', text }],
  ...(isError ? { isError } : {}),
});
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const tool = (name: string): Tool => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties: {} },
});

function execOptions(abortSignal?: AbortSignal): ToolExecutionOptions<Record<string, unknown>> {
  return { toolCallId: 'call-1', messages: [], abortSignal, context: {} };
}
/** Runs a tool of the set the way the AI SDK does (execute may return a value, a promise or a stream). */
async function run(
  tools: ToolSet,
  name: string,
  args: unknown,
  abortSignal?: AbortSignal,
): Promise<CallToolResult> {
  const execute = tools[name]?.execute;
  assert.ok(execute, `${name} is executable`);
  return (await execute(args, execOptions(abortSignal))) as CallToolResult;
}

function setup(call: BuildToolsInput['call'], policy?: BuildToolsInput['policy']) {
  const records: ToolCallRecord[] = [];
  const progress: Array<[string, Progress]> = [];
  const built = buildToolSet({
    catalog: [
      { server: 'srv', tools: [tool('ok'), tool('fails'), tool('hidden'), tool('throws')] },
      { server: 'down', error: new McpFailure('connection', 'nope') },
    ],
    policy:
      policy ??
      ((_server, t) => ({ enabled: t.name !== 'hidden', approval: t.name === 'ok' ? 'auto' : 'ask' })),
    call,
    record: (r) => records.push(r),
    onProgress: (id, p) => progress.push([id, p]),
  });
  return { ...built, records, progress };
}

describe('capResult', () => {
  test('a small result is untouched', () => {
    const result = textResult('hello');
    const capped = capResult(result);
    assert.equal(capped.result, result);
    assert.equal(capped.bytes, Buffer.byteLength(JSON.stringify(result)));
  });

  test('a 200 KB result is cut to the cap with a note naming its size', () => {
    const result = textResult('x'.repeat(200 * 1024));
    const original = Buffer.byteLength(JSON.stringify(result));
    const { result: cut, bytes } = capResult(result);
    assert.equal(bytes, original);
    const text = textOf(cut);
    assert.ok(Buffer.byteLength(text) <= MAX_RESULT_BYTES);
    assert.ok(Buffer.byteLength(JSON.stringify(cut)) <= MAX_RESULT_BYTES);
    assert.ok(text.startsWith('xxxx'));
    assert.match(text, new RegExp(`\\[truncated: the result was ${original} bytes`));
  });

  test('text that grows under JSON escaping still fits the cap once encoded', () => {
    for (const ch of ['\n', '"', '\u0001', '😀']) {
      const result = textResult(ch.repeat(200 * 1024));
      const { result: cut, bytes } = capResult(result);
      assert.equal(bytes, Buffer.byteLength(JSON.stringify(result)));
      assert.ok(Buffer.byteLength(JSON.stringify(cut)) <= MAX_RESULT_BYTES, JSON.stringify(ch));
      assert.ok(textOf(cut).startsWith(ch.repeat(100)));
      assert.ok(!/[\uD800-\uDBFF]\n/.test(textOf(cut)), 'no lone surrogate before the note');
    }
  });

  test('multi-byte text is not cut inside a character; isError survives', () => {
    const { result: cut } = capResult(textResult('é'.repeat(100_000), true), 1000);
    assert.equal(cut.isError, true);
    assert.ok(!textOf(cut).includes('\uFFFD'));
    assert.ok(Buffer.byteLength(textOf(cut)) <= 1000);
  });
});

describe('buildToolSet', () => {
  const fake: BuildToolsInput['call'] = async (_server, name, args, opts) => {
    if (name === 'fails') return textResult('fail: this tool always fails', true);
    if (name === 'throws') throw new McpFailure('timeout', 'Request timed out');
    opts.onProgress?.({ progress: 1, total: 2 });
    return textResult(`ok ${JSON.stringify(args)}`);
  };

  test('exposes enabled tools of healthy servers with their approval policy', () => {
    const { tools, entries } = setup(fake);
    assert.deepEqual(Object.keys(tools).sort(), ['srv__fails', 'srv__ok', 'srv__throws']);
    assert.equal(entries.get('srv__ok')?.approval, 'auto');
    assert.equal(entries.get('srv__fails')?.approval, 'ask');
    assert.equal(entries.get('srv__ok')?.tool.name, 'ok');
    assert.equal(entries.has('srv__hidden'), false);
  });

  test('a successful call returns the result, reports progress and is recorded once', async () => {
    const { tools, records, progress } = setup(fake);
    assert.equal(textOf(await run(tools, 'srv__ok', { n: 1 })), 'ok {"n":1}');
    assert.deepEqual(progress, [['call-1', { progress: 1, total: 2 }]]);
    assert.equal(records.length, 1);
    assert.deepEqual(
      { ...records[0], durationMs: 0 },
      {
        server: 'srv',
        tool: 'ok',
        durationMs: 0,
        outcome: 'ok',
        errorKind: null,
        error: null,
        resultBytes: Buffer.byteLength(JSON.stringify(textResult('ok {"n":1}'))),
      },
    );
  });

  test('an isError result throws with the tool text', async () => {
    const { tools, records } = setup(fake);
    await assert.rejects(run(tools, 'srv__fails', {}), { message: 'fail: this tool always fails' });
    assert.equal(records.length, 1);
    assert.equal(records[0]?.outcome, 'error');
    assert.equal(records[0]?.errorKind, 'tool');
  });

  test('a result nesting too deep to serialize fails the call with the reason, and the call is logged', async () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 20_000; i++) deep = { d: deep };
    const { tools, records } = setup(async () => ({
      content: [{ type: 'text', text: 'ok' }],
      structuredContent: { deep },
    }));
    await assert.rejects(run(tools, 'srv__ok', {}), /The result of srv\.ok nests too deep to use/);
    assert.equal(records.length, 1);
    assert.deepEqual([records[0]?.outcome, records[0]?.errorKind], ['error', 'tool']);
  });

  test('A3: a thrown McpFailure reaches the model as a status with a reference; the call record keeps the detail', async () => {
    const { tools, records } = setup(async () => {
      throw new McpFailure('connection', 'MCP error -32000: Connection closed — stderr: A3-STDERR-CANARY');
    });
    const err = await run(tools, 'srv__throws', {}).then(
      () => assert.fail('the call should fail'),
      (e: Error) => e,
    );
    assert.match(
      err.message,
      /^Could not run srv\.throws: Server "srv" is unavailable \(no connection\); try again later \(ref ([0-9a-f]{8})\)\.$/,
    );
    assert.doesNotMatch(err.message, /A3-STDERR-CANARY|-32000/);
    const ref = /ref ([0-9a-f]{8})/.exec(err.message)?.[1];
    assert.equal(records.length, 1);
    assert.deepEqual([records[0]?.outcome, records[0]?.errorKind], ['error', 'connection']);
    assert.equal(
      records[0]?.error,
      `ref ${ref}: MCP error -32000: Connection closed — stderr: A3-STDERR-CANARY`,
    );
  });

  test('A3: a timeout reaches the model as "timed out" with a reference', async () => {
    const { tools } = setup(fake);
    await assert.rejects(
      run(tools, 'srv__throws', {}),
      /Could not run srv\.throws: Server "srv" timed out; try again later \(ref [0-9a-f]{8}\)/,
    );
  });

  test('a call aborted by the user is recorded as cancelled', async () => {
    const abort = new AbortController();
    const { tools, records } = setup(async (_s, _t, _a, opts) => {
      abort.abort();
      throw new McpFailure('timeout', String(opts.signal?.reason));
    });
    await assert.rejects(run(tools, 'srv__ok', {}, abort.signal), /cancelled/);
    assert.deepEqual([records.length, records[0]?.outcome], [1, 'cancelled']);
  });
});

describe('buildToolSet with the real pool', () => {
  const pool = new McpPool({ ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 10_000 });
  after(() => pool.closeAll());

  test('executes MCP tools through the stdio test server', async () => {
    pool.sync([
      {
        name: 'tests',
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
      },
    ]);
    const records: ToolCallRecord[] = [];
    const progress: number[] = [];
    const { tools } = buildToolSet({
      catalog: await pool.forUser(tester).tools(),
      policy: () => ({ enabled: true, approval: 'auto' }),
      call: (server, name, args, opts) => pool.forUser(tester).callTool(server, name, args, opts),
      record: (r) => records.push(r),
      onProgress: (_id, p) => progress.push(p.progress),
    });
    assert.ok(tools.tests__added_later === undefined && tools.tests__add);
    assert.equal(textOf(await run(tools, 'tests__add', { a: 2, b: 3 })), '5');
    assert.equal(textOf(await run(tools, 'tests__sleep', { ms: 300, steps: 3 })), 'slept 300ms');
    // The test server waits for the client to handle each step (a ping) before it goes on: all arrive.
    assert.deepEqual(progress, [1, 2, 3]);
    await assert.rejects(run(tools, 'tests__fail', {}), /this tool always fails/);
    const big = await run(tools, 'tests__big', { bytes: 300_000 });
    assert.match(textOf(big), /\[truncated: the result was \d+ bytes/);
    assert.deepEqual(
      records.map((r) => [r.tool, r.outcome]),
      [
        ['add', 'ok'],
        ['sleep', 'ok'],
        ['fail', 'error'],
        ['big', 'ok'],
      ],
    );
    assert.ok((records[3]?.resultBytes ?? 0) > 300_000);
  });
});
