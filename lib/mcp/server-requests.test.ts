import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ElicitResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { type ConnectionOptions, DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';
import type { CallOptions } from '@/lib/mcp/connection-options';
import type { StdioConfig } from '@/lib/schemas/mcp';

// What a server may ask of the host while a call runs (elicitation, sampling, roots) and task-based
// tools, against the real test server (TEST_MCP_RICH=1) as a child process.

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const OPTS: ConnectionOptions = { ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 10_000 };

const connections: McpConnection[] = [];
after(async () => {
  await Promise.all(connections.map((c) => c.close()));
});

function open(extra: Partial<StdioConfig> = {}): McpConnection {
  const conn = new McpConnection(
    {
      name: 'rich',
      transport: 'stdio',
      allow: ['*'],
      scope: 'shared',
      userValues: [],
      enabled: true,
      timeoutMs: 10_000,
      command: process.execPath,
      args: [FIXTURE, 'stdio'],
      env: { TEST_MCP_RICH: '1' },
      cwd: null,
      ...extra,
    },
    OPTS,
  );
  connections.push(conn);
  return conn;
}

const text = (r: { content: Array<{ type: string; text?: string }> }) =>
  r.content.map((c) => c.text ?? '').join('');

/**
 * A long call of `opts.owner`, running (the server has reported its first step) when this resolves; it
 * runs until `stop()`, so calls made meanwhile overlap it however slow the machine.
 */
async function longCall(conn: McpConnection, opts: Pick<CallOptions, 'owner' | 'hooks'>) {
  const abort = new AbortController();
  let running!: () => void;
  const started = new Promise<void>((resolve) => (running = resolve));
  const call = conn.callTool(
    'sleep',
    { ms: 300_000, steps: 1_000 },
    { ...opts, signal: abort.signal, onProgress: () => running() },
  );
  await Promise.race([
    started,
    call.then((r) => assert.fail(`${opts.owner}'s call ended before its first step: ${text(r)}`)),
  ]);
  return {
    stop: async () => {
      abort.abort();
      await assert.rejects(call);
    },
  };
}

/** Resolves once `condition` holds (checked every 20 ms); fails after 10 s naming `what` (no timing asserted). */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`gave up after 10 s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('elicitation', () => {
  test('the form request reaches the running call, and its answer goes back to the tool', async () => {
    const conn = open();
    await conn.listTools();
    let asked: unknown;
    const result = await conn.callTool(
      'ask_details',
      {},
      {
        owner: 'u1',
        hooks: {
          elicit: async (params): Promise<ElicitResult> => {
            asked = params;
            return { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', size: 'large' } };
          },
        },
      },
    );
    assert.equal((asked as { message: string }).message, 'Tell us about your order');
    // The client advertises applyDefaults: the server's SDK fills the fields left out with their defaults.
    assert.equal(
      text(result),
      'Submitted: {"name":"Ada","email":"ada@example.com","size":"large","quantity":1,"gift":false}',
    );
  });

  test('a call without a way to ask gets a refusal the tool can report, not a hang', async () => {
    const conn = open();
    const result = await conn.callTool('ask_details', {});
    assert.match(text(result), /Elicitation failed: .*No tool call that could ask the user/);
  });

  test('on a shared connection, calls of two users at once: the request is refused, never shown to the wrong one', async () => {
    const conn = open();
    await conn.listTools();
    const shown: string[] = [];
    const hooks = (who: string) => ({
      elicit: async (): Promise<ElicitResult> => {
        shown.push(who);
        return { action: 'decline' };
      },
    });
    // Bob's long call is running when Ada's call asks for input.
    const bob = await longCall(conn, { owner: 'bob', hooks: hooks('bob') });
    const ada = await conn.callTool('ask_details', {}, { owner: 'ada', hooks: hooks('ada') });
    await bob.stop();
    assert.deepEqual(shown, []);
    assert.match(text(ada), /cannot tell whom to ask the user/);
  });

  test("on a shared connection, a request for a call that cannot ask (an app's) never reaches another user's call", async () => {
    const conn = open();
    await conn.listTools();
    const shown: string[] = [];
    // Bob's chat call can answer requests; Ada's call comes from an MCP App (no hooks: no one to ask).
    const bob = await longCall(conn, {
      owner: 'bob',
      hooks: {
        elicit: async (): Promise<ElicitResult> => {
          shown.push('bob');
          return { action: 'accept', content: { name: 'Bob', email: 'bob@example.com', size: 'small' } };
        },
      },
    });
    const ada = await conn.callTool('ask_details', {}, { owner: 'ada' });
    await bob.stop();
    assert.deepEqual(shown, [], "Ada's request was shown to Bob");
    assert.doesNotMatch(text(ada), /Submitted/);
    assert.match(text(ada), /cannot tell whom to ask the user/);
  });

  test('URL mode: accepted, then the server reports completion to the same call', async () => {
    const conn = open();
    await conn.listTools();
    const completed: string[] = [];
    let url = '';
    const result = await conn.callTool(
      'open_link',
      {},
      {
        owner: 'u1',
        hooks: {
          elicit: async (params) => {
            if (params.mode === 'url') url = params.url;
            return { action: 'accept' };
          },
          elicitationComplete: (id) => completed.push(id),
        },
      },
    );
    assert.equal(text(result), 'Link flow finished');
    assert.match(url, /^https:\/\/pay\.example\.com\/connect\?session=/);
    assert.equal(completed.length, 1);
    assert.ok(url.endsWith(completed[0] as string));
  });
});

describe('sampling', () => {
  test("the request goes to the call's sampler and the answer back to the tool", async () => {
    const conn = open();
    await conn.listTools();
    const result = await conn.callTool(
      'summarize',
      { text: 'a long story' },
      {
        owner: 'u1',
        hooks: {
          sample: async (params) => {
            assert.equal(params.systemPrompt, 'You are terse.');
            assert.equal(params.maxTokens, 120);
            return { role: 'assistant', content: { type: 'text', text: 'Short.' }, model: 'm1' };
          },
        },
      },
    );
    assert.equal(text(result), 'Model said: Short.');
  });

  test('"never sample": the capability is not advertised, so the server cannot ask', async () => {
    const conn = open({ sampling: 'never' });
    await conn.listTools();
    let called = false;
    const result = await conn.callTool(
      'summarize',
      { text: 'x' },
      {
        hooks: {
          sample: async () => {
            called = true;
            return { role: 'assistant', content: { type: 'text', text: 'no' }, model: 'm' };
          },
        },
      },
    );
    assert.equal(called, false);
    assert.match(text(result), /Sampling failed/);
  });
});

describe('roots', () => {
  test('configured roots are listed; an update is announced with list_changed', async () => {
    const conn = open({ roots: ['file:///srv/docs', 'file:///srv/data/'] });
    await conn.listTools();
    assert.equal(
      text(await conn.callTool('list_roots', {})),
      'Roots: [{"uri":"file:///srv/docs","name":"docs"},{"uri":"file:///srv/data/","name":"data"}]',
    );
    assert.equal(conn.updateRoots(['file:///srv/other']), true);
    // The notification travels on its own: asked until the server has counted it.
    await until(
      async () => text(await conn.callTool('roots_changes', {})) !== 'Roots changed 0 times',
      'the server to receive notifications/roots/list_changed',
    );
    assert.equal(text(await conn.callTool('roots_changes', {})), 'Roots changed 1 times');
    assert.equal(
      text(await conn.callTool('list_roots', {})),
      'Roots: [{"uri":"file:///srv/other","name":"other"}]',
    );
    // From some roots to none cannot be said to a connected server: the caller must reconnect.
    assert.equal(conn.updateRoots([]), false);
  });

  test('without roots the capability is not advertised', async () => {
    const conn = open();
    await conn.listTools();
    assert.match(text(await conn.callTool('list_roots', {})), /roots\/list failed/);
  });
});

describe('tasks', () => {
  test('a tool that requires a task runs as one: status as progress, then the result', async () => {
    const conn = open();
    const tools = await conn.listTools();
    assert.equal(tools.find((t) => t.name === 'slow_report')?.execution?.taskSupport, 'required');
    const progress: Progress[] = [];
    const result = await conn.callTool(
      'slow_report',
      { topic: 'sales' },
      { onProgress: (p) => progress.push(p) },
    );
    assert.equal(text(result), 'Report ready: sales');
    assert.ok(
      progress.some((p) => p.message === 'Writing…'),
      JSON.stringify(progress),
    );
  });

  test('Stop cancels the task on the server', async () => {
    const conn = open();
    await conn.listTools();
    const stop = new AbortController();
    const progress: Progress[] = [];
    const call = conn.callTool(
      'slow_report',
      { topic: 'x' },
      {
        signal: stop.signal,
        onProgress: (p) => {
          progress.push(p);
          if (progress.length === 1) stop.abort(new Error('Stopped by the user'));
        },
      },
    );
    await assert.rejects(call);
    const client = await conn.getClient();
    const { tasks } = await client.experimental.tasks.listTasks();
    assert.equal(tasks.length, 1);
    assert.equal(tasks[0]?.status, 'cancelled');
  });
});
