import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONNECTION_OPTIONS } from '@/lib/mcp/connection';
import { MASK } from '@/lib/mcp/mask';
import { MAX_LOG_TEXT, ServerLogSink } from '@/lib/mcp/notification-limit';
import { McpPool } from '@/lib/mcp/pool';

/** Every server here is open to everyone; the pool still needs to know who is asking. */
const tester = { id: 'tester', email: 'tester@example.com', role: 'admin' };

const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const SECRET = 'S18-LOG-CANARY-9f3b';

const pool = new McpPool({ ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 10_000 });
pool.sync([
  {
    name: 'provoker',
    transport: 'stdio',
    allow: ['*'],
    scope: 'shared',
    userValues: [],
    enabled: true,
    timeoutMs: 30_000,
    command: process.execPath,
    args: [FIXTURE, 'stdio'],
    // The canary is a configured secret: where the admin sees the server's log messages, it is masked.
    env: { TEST_MCP_ATTACK_TOOLS: '1', LOG_CANARY: SECRET },
    cwd: null,
  },
]);
after(() => pool.closeAll());

/** Everything the process prints (stdout and stderr, which console writes to) while `fn` runs; still printed too. */
async function captureOutput<T>(fn: () => Promise<T>): Promise<{ value: T; output: string }> {
  const chunks: string[] = [];
  const streams = [process.stdout, process.stderr] as const;
  const originals = streams.map((s) => s.write);
  streams.forEach((stream, i) => {
    const original = originals[i] as typeof stream.write;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return (original as (...args: unknown[]) => boolean).call(stream, chunk, ...rest);
    }) as typeof stream.write;
  });
  try {
    return { value: await fn(), output: chunks.join('') };
  } finally {
    streams.forEach((stream, i) => {
      stream.write = originals[i] as typeof stream.write;
    });
  }
}

const text = (r: { content: unknown }) =>
  (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');

test('S18: sampling, elicitation and roots requests nobody can answer are refused; a log/progress flood is rate-limited, never printed, and kept for admins with secrets masked', async (t) => {
  // The rate limit reads the clock: frozen during the flood (so it meets exactly the burst, however
  // long the machine takes), then moved on by hand. Timers stay real: the server is a real process.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const { value, output } = await captureOutput(async () => {
    const flood = await pool
      .forUser(tester)
      .callTool('provoker', 'provoke', { count: 1000, secret: SECRET }, { onProgress: () => {} });
    // After a pause the bucket has room again: the next notification reports how many were dropped.
    t.mock.timers.tick(1_100);
    const again = await pool.forUser(tester).callTool('provoker', 'provoke', { count: 1, secret: SECRET });
    const sum = await pool.forUser(tester).callTool('provoker', 'add', { a: 2, b: 3 });
    return { flood, again, sum };
  });

  const report = JSON.parse(text(value.flood)) as {
    answers: Record<string, { ok: boolean; code: number | null }>;
    notifications: number;
    ms: number;
  };
  // Roots are not advertised without any to share: method not found. Elicitation and sampling are
  // (a chat turn's calls answer them), but this call offers no way to ask anyone: refused as an invalid
  // request, and no prompt is shown to anybody.
  const expected: Record<string, number> = {
    'sampling/createMessage': -32600,
    'elicitation/create': -32600,
    'roots/list': -32601,
  };
  for (const [method, code] of Object.entries(expected)) {
    assert.equal(report.answers[method]?.ok, false, `${method} must be refused`);
    assert.equal(report.answers[method]?.code, code, `${method}: refused with ${code}`);
  }
  assert.equal(report.notifications, 2000);
  t.diagnostic(
    `flood: ${report.notifications} notifications in ${report.ms} ms (${Math.round((report.notifications / Math.max(1, report.ms)) * 1000)}/s)`,
  );
  // The connection survived the flood and still answers.
  assert.equal(text(value.sum), '5');

  // Nothing the server said reached our output or the stderr tail; the admin's log messages hold it masked.
  assert.ok(!output.includes(SECRET), `process output leaked the secret: ${output.slice(0, 500)}`);
  const conn = pool.get('provoker');
  assert.ok(
    !(conn?.stderr.tail() ?? []).join('\n').includes(SECRET),
    'the stderr tail holds no notification text',
  );
  const messages = conn?.logs.list() ?? [];
  assert.ok(!JSON.stringify(messages).includes(SECRET), 'the log messages hold the secret masked');
  const kept = messages.filter((m) => m.logger === 'provoke');
  assert.equal(kept.length, 20 + 1, 'the burst of the flood, then the one sent after the pause');
  assert.equal(kept[0]?.text, `leaked ${MASK} #0`);
  assert.equal(kept[0]?.level, 'error');
  const dropped = messages.filter((m) => m.logger === 'host').map((m) => m.text);
  assert.deepEqual(dropped, ['980 more log messages suppressed (rate limit)']);
});

test('S18: the log sink keeps level, logger and text with configured secrets masked and cut; burst then a steady rate', () => {
  const sink = new ServerLogSink([SECRET], 3, 1);
  const t0 = 1_000_000;
  for (let i = 0; i < 10; i++) sink.record({ level: 'error', logger: 'db', data: `token=${SECRET}` }, t0);
  assert.equal(sink.list().length, 3);
  assert.deepEqual(sink.list()[0], {
    at: new Date(t0).toISOString(),
    level: 'error',
    logger: 'db',
    text: `token=${MASK}`,
  });
  sink.record({ level: 'info', data: { secret: SECRET, n: 1 } }, t0 + 1000);
  const entries = sink.list();
  assert.equal(entries.length, 5);
  assert.equal(entries[3]?.text, '7 more log messages suppressed (rate limit)');
  assert.deepEqual(entries[4], {
    at: new Date(t0 + 1000).toISOString(),
    level: 'info',
    logger: null,
    text: `{"secret":"${MASK}","n":1}`,
  });
  // A secret straddling the cut is masked before the text is cut: no part of it is kept.
  sink.record({ level: 'debug', data: `${'x'.repeat(MAX_LOG_TEXT - 4)}${SECRET}` }, t0 + 2000);
  const long = sink.list().at(-1)?.text ?? '';
  assert.ok(long.endsWith('… [truncated]'));
  assert.ok(!long.includes(SECRET.slice(0, 4)));
  assert.ok(!JSON.stringify(sink.list()).includes(SECRET));
});
