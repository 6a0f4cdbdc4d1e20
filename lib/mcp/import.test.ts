import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ImportJsonSchema,
  keepMaskedSecrets,
  MAX_IMPORT_DEPTH,
  parseClaudeDesktopConfig,
} from '@/lib/mcp/import';
import { MASK, maskConfig, unmaskSecrets, withMasked } from '@/lib/mcp/mask';
import type { McpServerConfig } from '@/lib/schemas/mcp';

test('a Claude Desktop file imports stdio, http, sse and disabled servers', () => {
  const { configs, errors } = parseClaudeDesktopConfig({
    mcpServers: {
      files: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv'],
        env: { KEY: 'v' },
      },
      remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
      legacy: { type: 'sse', url: 'https://example.com/sse' },
      off: { command: 'node', disabled: true },
    },
  });
  assert.deepEqual(errors, []);
  assert.deepEqual(
    configs.map((c) => [c.name, c.transport, c.enabled]),
    [
      ['files', 'stdio', true],
      ['remote', 'http', true],
      ['legacy', 'sse', true],
      ['off', 'stdio', false],
    ],
  );
  const files = configs[0];
  assert.ok(files?.transport === 'stdio');
  assert.deepEqual(files.args, ['-y', '@modelcontextprotocol/server-filesystem', '/srv']);
  assert.equal(files.timeoutMs, 60_000);
});

test('bad entries are named with their problem; the good ones still import', () => {
  const { configs, errors } = parseClaudeDesktopConfig({
    mcpServers: {
      good: { command: 'node' },
      'bad name!': { command: 'node' },
      nothing: {},
      ftp: { url: 'ftp://example.com' },
      shelly: { command: 'node', env: { 'BAD-KEY': 'x' } },
    },
  });
  assert.deepEqual(
    configs.map((c) => c.name),
    ['good'],
  );
  assert.deepEqual(errors.map((e) => e.name).sort(), ['bad name!', 'ftp', 'nothing', 'shelly']);
  assert.match(errors.find((e) => e.name === 'nothing')?.message ?? '', /command.*url/);
  assert.match(errors.find((e) => e.name === 'ftp')?.message ?? '', /http/);
});

test('a file without "mcpServers" is rejected as a whole', () => {
  for (const bad of [null, [], 'x', { servers: {} }]) {
    const { configs, errors } = parseClaudeDesktopConfig(bad);
    assert.equal(configs.length, 0);
    assert.equal(errors[0]?.name, '(file)');
  }
});

test('secrets are masked on the way out and kept when the mask comes back', () => {
  const stored: McpServerConfig = {
    name: 's',
    transport: 'stdio',
    allow: ['*'],
    scope: 'shared',
    userValues: [],
    command: 'x',
    args: [],
    env: { TOKEN: 'secret-1', MODE: 'a' },
    cwd: null,
    enabled: true,
    timeoutMs: 60_000,
  };
  const masked = maskConfig(stored);
  assert.ok(masked.transport === 'stdio');
  assert.deepEqual(masked.env, { TOKEN: MASK, MODE: MASK });
  assert.ok(!JSON.stringify(masked).includes('secret-1'));
  const {
    config: edited,
    kept,
    missing,
  } = unmaskSecrets({ ...masked, env: { TOKEN: MASK, MODE: 'b', NEW: 'n' } }, stored);
  assert.ok(edited.transport === 'stdio');
  assert.deepEqual(edited.env, { TOKEN: 'secret-1', MODE: 'b', NEW: 'n' });
  assert.deepEqual([kept, missing], [['env.TOKEN'], []]);
  const remote: McpServerConfig = {
    name: 'r',
    transport: 'http',
    allow: ['*'],
    scope: 'shared',
    userValues: [],
    url: 'https://x.test/mcp',
    headers: { Authorization: 'Bearer t0k' },
    allowPrivateNetwork: false,
    enabled: true,
    timeoutMs: 60_000,
  };
  assert.ok(!JSON.stringify(maskConfig(remote)).includes('t0k'));
});

const storedServers: McpServerConfig[] = [
  {
    name: 'local',
    transport: 'stdio',
    allow: ['*'],
    scope: 'shared',
    userValues: [],
    command: 'node',
    args: [],
    env: { TOKEN: 'tok-secret', MODE: 'm' },
    cwd: null,
    enabled: true,
    timeoutMs: 60_000,
  },
  {
    name: 'remote',
    transport: 'http',
    allow: ['*'],
    scope: 'shared',
    userValues: [],
    url: 'https://x.test/mcp',
    headers: { Authorization: 'Bearer hdr-secret' },
    allowPrivateNetwork: false,
    enabled: true,
    timeoutMs: 60_000,
  },
];
const lookup = (name: string) => storedServers.find((s) => s.name === name) ?? null;

test('A11: an imported export keeps the stored secrets behind its masks and says which ones', () => {
  const exported = {
    mcpServers: {
      local: { command: 'node', env: { TOKEN: MASK, MODE: 'changed' } },
      remote: { type: 'http', url: 'https://x.test/mcp', headers: { Authorization: MASK } },
    },
  };
  const plan = keepMaskedSecrets(parseClaudeDesktopConfig(exported), lookup);
  assert.deepEqual(plan.errors, []);
  const [local, remote] = plan.configs;
  assert.ok(local?.transport === 'stdio' && remote?.transport === 'http');
  assert.deepEqual(local.env, { TOKEN: 'tok-secret', MODE: 'changed' });
  assert.deepEqual(remote.headers, { Authorization: 'Bearer hdr-secret' });
  assert.deepEqual(plan.kept, [
    { name: 'local', keys: ['env.TOKEN'] },
    { name: 'remote', keys: ['headers.Authorization'] },
  ]);
  assert.ok(!JSON.stringify(plan.configs).includes(MASK), 'no mask is ever a value to store');
});

test('A11: a masked value with nothing stored to keep is an error for that entry naming the key; the others still import', () => {
  const plan = keepMaskedSecrets(
    parseClaudeDesktopConfig({
      mcpServers: {
        fresh: { command: 'node', env: { API_KEY: MASK } },
        local: { command: 'node', env: { TOKEN: MASK, OTHER: MASK } },
        remote: { command: 'node', env: { Authorization: MASK } },
        plain: { command: 'node', env: { A: 'b' } },
      },
    }),
    lookup,
  );
  assert.deepEqual(
    plan.configs.map((c) => c.name),
    ['plain'],
  );
  const message = (name: string) => plan.errors.find((e) => e.name === name)?.message ?? '';
  assert.match(message('fresh'), /env\.API_KEY.*no stored secret/);
  assert.match(message('local'), /env\.OTHER/);
  assert.doesNotMatch(message('local'), /TOKEN/);
  // The stored server of that name speaks http: its headers are no env values to keep.
  assert.match(message('remote'), /env\.Authorization/);
  assert.deepEqual(plan.kept, []);
});

test('A11: import JSON nested deeper than the limit is refused, a real config is not', () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 100_000; i++) deep = [deep];
  const refused = ImportJsonSchema.safeParse({ mcpServers: { a: { command: 'node', extra: deep } } });
  assert.equal(refused.success, false);
  assert.match(refused.error?.issues[0]?.message ?? '', new RegExp(`nested deeper than ${MAX_IMPORT_DEPTH}`));
  assert.equal(
    ImportJsonSchema.safeParse({ mcpServers: { a: { command: 'node', args: ['x'], env: { A: 'b' } } } })
      .success,
    true,
  );
});

test('A10: a stored secret that cannot be decrypted is shown masked, and an edit that neither enters nor removes it is refused', () => {
  // As the query module reads it under another key: TOKEN left out and named as unreadable.
  const readable: McpServerConfig = {
    ...(storedServers[0] as McpServerConfig & { transport: 'stdio' }),
    env: { MODE: 'm' },
  };
  const shown = withMasked(readable, ['env.TOKEN']);
  assert.ok(shown.transport === 'stdio');
  assert.deepEqual(shown.env, { MODE: 'm', TOKEN: MASK });
  assert.deepEqual(unmaskSecrets({ ...shown, timeoutMs: 5000 }, readable).missing, ['env.TOKEN']);
  const reentered = unmaskSecrets({ ...shown, env: { MODE: MASK, TOKEN: 'new-value' } }, readable);
  assert.deepEqual(
    [reentered.missing, reentered.config.transport === 'stdio' && reentered.config.env],
    [[], { MODE: 'm', TOKEN: 'new-value' }],
  );
  assert.deepEqual(
    withMasked(storedServers[1] as McpServerConfig, ['env.TOKEN']),
    storedServers[1],
    'another transport has no such field',
  );
});

test('roots, sampling and log level import as the file says; a root that is not a file URI is named', () => {
  const { configs, errors } = parseClaudeDesktopConfig({
    mcpServers: {
      files: {
        command: 'node',
        args: ['server.js'],
        roots: ['file:///srv/docs'],
        sampling: 'never',
        logLevel: 'warning',
      },
      bad: { command: 'node', roots: ['/srv/docs'] },
    },
  });
  assert.equal(configs.length, 1);
  assert.deepEqual(
    [configs[0]?.roots, configs[0]?.sampling, configs[0]?.logLevel],
    [['file:///srv/docs'], 'never', 'warning'],
  );
  assert.deepEqual(errors, [
    { name: 'bad', message: 'roots.0: must be a file URI such as file:///srv/data' },
  ]);
});
