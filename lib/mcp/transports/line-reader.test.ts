import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONNECTION_OPTIONS, McpConnection } from '@/lib/mcp/connection';
import { LineReader } from '@/lib/mcp/transports/line-reader';

const FIXTURE = fileURLToPath(new URL('../../../e2e/fixtures/test-mcp-server.mjs', import.meta.url));
const MB = 1024 * 1024;

test('lines split across chunks, several in one chunk, CRLF, and a line past the limit', () => {
  const reader = new LineReader(10);
  assert.deepEqual(reader.push(Buffer.from('{"a"')), []);
  assert.deepEqual(reader.push(Buffer.from(':1}\r\n{}\n[')), ['{"a":1}', '{}']);
  assert.deepEqual(reader.push(Buffer.from(']\n')), ['[]']);
  assert.throws(() => reader.push(Buffer.from('0123456789A')), /maximum size of 10 bytes/);
  assert.deepEqual(reader.push(Buffer.from('ok\n')), ['ok'], 'starts afresh after a line too long');
});

// A stdio server answers with a 16 MB message, read in 64 KB pipe chunks. The SDK's ReadBuffer copied
// its whole buffer with every chunk (Buffer.concat) and searched all of it for a newline: quadratic,
// ~4 s of the host's one thread for 16 MB, ~34 s for 60 MB, and a server may send such messages unasked.
// Every byte is now copied about once: what Buffer.concat produces while the answer is read is counted.
const conn = new McpConnection(
  {
    name: 'big',
    transport: 'stdio',
    allow: ['*'],
    scope: 'shared',
    userValues: [],
    enabled: true,
    timeoutMs: 120_000,
    command: process.execPath,
    args: [FIXTURE, 'stdio'],
    env: {},
    cwd: null,
  },
  { ...DEFAULT_CONNECTION_OPTIONS, connectTimeoutMs: 10_000 },
);
after(() => conn.close());

test('a 16 MB message is copied about once while it is read, not once per chunk', async (t) => {
  await conn.listTools();
  let copied = 0;
  const concat = Buffer.concat;
  t.mock.method(Buffer, 'concat', (list: readonly Uint8Array[], length?: number) => {
    const out = concat(list, length);
    copied += out.length;
    return out;
  });
  const result = await conn.callTool('big', { bytes: 16 * MB });
  t.mock.restoreAll();
  assert.equal((result.content[0] as { text: string }).text.length, 16 * MB);
  assert.ok(copied < 2 * 16 * MB, `${Math.round(copied / MB)} MB copied to read 16 MB`);
});
