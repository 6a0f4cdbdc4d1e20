import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseClaudeDesktopConfig } from '@/lib/mcp/import';
import { MASK, maskConfig, unmaskConfig } from '@/lib/mcp/mask';
import type { McpServerConfig } from '@/lib/schemas/mcp';

test('a Claude Desktop file imports stdio, http, sse and disabled servers', () => {
  const { configs, errors } = parseClaudeDesktopConfig({
    mcpServers: {
      files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv'], env: { KEY: 'v' } },
      remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
      legacy: { type: 'sse', url: 'https://example.com/sse' },
      off: { command: 'node', disabled: true },
    },
  });
  assert.deepEqual(errors, []);
  assert.deepEqual(
    configs.map((c) => [c.name, c.transport, c.enabled]),
    [['files', 'stdio', true], ['remote', 'http', true], ['legacy', 'sse', true], ['off', 'stdio', false]],
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
  assert.deepEqual(configs.map((c) => c.name), ['good']);
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
  const stored: McpServerConfig = { name: 's', transport: 'stdio', command: 'x', args: [], env: { TOKEN: 'secret-1', MODE: 'a' }, cwd: null, enabled: true, timeoutMs: 60_000 };
  const masked = maskConfig(stored);
  assert.ok(masked.transport === 'stdio');
  assert.deepEqual(masked.env, { TOKEN: MASK, MODE: MASK });
  assert.ok(!JSON.stringify(masked).includes('secret-1'));
  const edited = unmaskConfig({ ...masked, env: { TOKEN: MASK, MODE: 'b', NEW: 'n' } }, stored);
  assert.ok(edited.transport === 'stdio');
  assert.deepEqual(edited.env, { TOKEN: 'secret-1', MODE: 'b', NEW: 'n' });
  const remote: McpServerConfig = { name: 'r', transport: 'http', url: 'https://x.test/mcp', headers: { Authorization: 'Bearer t0k' }, allowPrivateNetwork: false, enabled: true, timeoutMs: 60_000 };
  assert.ok(!JSON.stringify(maskConfig(remote)).includes('t0k'));
});
