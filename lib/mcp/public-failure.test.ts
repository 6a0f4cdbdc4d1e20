import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_CONNECTION_OPTIONS } from '@/lib/mcp/connection';
import { McpFailure } from '@/lib/mcp/errors';
import { MASK } from '@/lib/mcp/mask';
import { McpPool } from '@/lib/mcp/pool';
import { configSecrets, FailureLog, publicFailure, scrubSecrets } from '@/lib/mcp/public-failure';
import type { McpServerConfig } from '@/lib/schemas/mcp';

/** Every server here is open to everyone; the pool still needs to know who is asking. */
const tester = { id: 'tester', email: 'tester@example.com', role: 'admin' };

const REF = /\(ref ([0-9a-f]{8})\)/;

/** Captures console.error lines while `fn` runs (publicFailure logs the detail there). */
function logged<T>(fn: () => T): { value: T; lines: string[] } {
  const lines: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  try {
    return { value: fn(), lines };
  } finally {
    console.error = original;
  }
}

const remote: McpServerConfig = {
  name: 'remote',
  transport: 'http',
  allow: ['*'],
  scope: 'shared',
  userValues: [],
  url: 'http://user:A3-PASS-CANARY@127.0.0.1:9/mcp?token=A3-QUERY-CANARY',
  headers: { Authorization: 'Bearer A3-HEADER-CANARY' },
  allowPrivateNetwork: true,
  enabled: true,
  timeoutMs: 5_000,
};

describe('publicFailure', () => {
  test('A3: a connection failure with stderr and a URL with credentials becomes "unavailable" with a reference; the logged detail has secrets masked', () => {
    const raw = new Error(
      `Request cannot be constructed from a URL that includes credentials: ${remote.url} — stderr: A3-STDERR-CANARY A3-ENV-CANARY`,
    );
    const log = new FailureLog();
    const { value: failure, lines } = logged(() =>
      publicFailure('remote', raw, { secrets: ['A3-ENV-CANARY', ...configSecrets(remote)], log }),
    );

    assert.equal(failure.kind, 'connection');
    assert.equal(
      failure.message,
      `Server "remote" is unavailable (no connection); try again later (ref ${failure.ref}).`,
    );
    assert.match(failure.ref, /^[0-9a-f]{8}$/);
    for (const canary of [
      'A3-STDERR-CANARY',
      'A3-ENV-CANARY',
      'A3-PASS-CANARY',
      'A3-QUERY-CANARY',
      '127.0.0.1',
      'credentials',
    ]) {
      assert.ok(!failure.message.includes(canary), canary);
    }
    // The admin's detail keeps what helps (stderr, host, path) and masks the secrets.
    assert.match(failure.detail, /stderr: A3-STDERR-CANARY/);
    assert.ok(failure.detail.includes(`http://${MASK}@127.0.0.1:9/mcp?${MASK}`), failure.detail);
    for (const secret of ['A3-ENV-CANARY', 'A3-PASS-CANARY', 'A3-QUERY-CANARY'])
      assert.ok(!failure.detail.includes(secret), secret);
    assert.equal(lines.length, 1);
    assert.ok(lines[0]?.includes(`ref ${failure.ref}`) && lines[0].includes(failure.detail));
    assert.deepEqual(
      log.list().map((n) => [n.ref, n.kind, n.detail]),
      [[failure.ref, 'connection', failure.detail]],
    );
    // Rethrown, it carries the reference and only the masked detail.
    assert.equal(failure.failure.ref, failure.ref);
    assert.equal(failure.failure.message, failure.detail);
    assert.equal(failure.failure.cause, undefined);
  });

  test('A3: a failure that already has a reference keeps it and is not logged twice', () => {
    const first = logged(() =>
      publicFailure('s', new McpFailure('timeout', 'Request timed out after 60000 ms')),
    ).value;
    const { value: again, lines } = logged(() => publicFailure('s', first.failure));
    assert.equal(again.ref, first.ref);
    assert.equal(again.message, `Server "s" timed out; try again later (ref ${first.ref}).`);
    assert.deepEqual(lines, []);
  });

  test('A3: a failure referenced by another copy of the module (Next bundles the pool and routes apart) keeps its kind and reference', () => {
    // What `instanceof` cannot recognise: the same class, loaded twice.
    const foreign = Object.assign(
      new Error('MCP error -32602: Structured content does not match the output schema'),
      {
        name: 'McpFailure',
        kind: 'protocol',
        ref: '0badc0de',
      },
    );
    const { value, lines } = logged(() => publicFailure('s', foreign));
    assert.deepEqual([value.kind, value.ref], ['protocol', '0badc0de']);
    assert.match(value.message, /answered with an error: .*output schema \(ref 0badc0de\)$/);
    assert.deepEqual(lines, []);
  });

  test("A3: each kind gets its own status; a protocol error is the server's answer and keeps its reason", () => {
    const auth = logged(() =>
      publicFailure('s', new McpFailure('auth', 'HTTP 401: the server refused our credentials')),
    ).value;
    assert.match(
      auth.message,
      /^Server "s" is unavailable: it did not accept the app's credentials; an admin needs to check it \(ref [0-9a-f]{8}\)\.$/,
    );
    const protocol = logged(() =>
      publicFailure('s', new McpError(ErrorCode.InvalidParams, 'Prompt nope not found')),
    ).value;
    assert.equal(protocol.kind, 'protocol');
    assert.match(
      protocol.message,
      /^Server "s" answered with an error: MCP error -32602: Prompt nope not found/,
    );
    assert.match(protocol.message, REF);
  });
});

describe('scrubSecrets', () => {
  test('A3: masks configured values (longest first), the words of header values, and any URL userinfo and query', () => {
    const secrets = configSecrets(remote);
    assert.ok(
      secrets.includes('A3-HEADER-CANARY') &&
        secrets.includes('A3-PASS-CANARY') &&
        secrets.includes('A3-QUERY-CANARY'),
    );
    const text = scrubSecrets(
      'token A3-HEADER-CANARY; see https://a:b@example.com/x?k=v and flag 1',
      secrets,
    );
    assert.equal(text, `token ${MASK}; see https://${MASK}@example.com/x?${MASK} and flag 1`);
    // Short values would mangle ordinary text and stay.
    assert.equal(scrubSecrets('flag 1 is true', ['1', 'true']), 'flag 1 is true');
    assert.deepEqual(
      configSecrets({
        name: 'b',
        transport: 'builtin',
        builtin: 'time',
        enabled: true,
        timeoutMs: 1000,
        allow: ['*'],
        scope: 'shared',
        userValues: [],
      }),
      [],
    );
  });
});

describe('the pool', () => {
  const pool = new McpPool({
    ...DEFAULT_CONNECTION_OPTIONS,
    connectTimeoutMs: 10_000,
    baseBackoffMs: 60_000,
  });
  after(() => pool.closeAll());

  test('A3: a call to a stdio server that dies at start rejects with a referenced failure; the server keeps the masked detail', async () => {
    pool.sync([
      {
        name: 'dies',
        transport: 'stdio',
        allow: ['*'],
        scope: 'shared',
        userValues: [],
        command: process.execPath,
        args: ['-e', "console.error('A3-STDERR-CANARY ' + process.env.A3_SECRET); process.exit(3)"],
        env: { A3_SECRET: 'A3-ENV-CANARY' },
        cwd: null,
        enabled: true,
        timeoutMs: 5_000,
      },
    ]);
    const failed = (p: Promise<unknown>) =>
      p.then(
        () => assert.fail('the call should fail'),
        (e: unknown) => e,
      );
    const first = await failed(pool.forUser(tester).callTool('dies', 'anything', {}));
    // While the server backs off, the failure names its last error (with stderr): the detail, for admins only.
    const second = await failed(pool.forUser(tester).callTool('dies', 'anything', {}));
    for (const err of [first, second]) {
      assert.ok(err instanceof McpFailure && err.ref, String(err));
      assert.equal(
        pool.forUser(tester).publicFailure('dies', err).message,
        `Server "dies" is unavailable (no connection); try again later (ref ${err.ref}).`,
      );
    }
    assert.match((second as McpFailure).message, /next retry/);
    const notes = pool.get('dies')?.failures.list() ?? [];
    assert.deepEqual(
      notes.map((n) => n.ref),
      [first, second].map((e) => (e as McpFailure).ref),
    );
    assert.ok(!JSON.stringify(notes).includes('A3-ENV-CANARY'), JSON.stringify(notes));
  });
});
