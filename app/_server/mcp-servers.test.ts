import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createServer, updateServer } from '@/app/_server/mcp-servers';
import { getDb } from '@/db/client';
import { getMcpServer } from '@/db/queries/mcp-servers';
import { getPool } from '@/lib/mcp/pool';
import { resetProcessState } from '@/lib/process-state';

// Admin edits of an MCP server against a real migrated SQLite file (no HTTP): saves that land at once.

const dir = mkdtempSync(join(tmpdir(), 'mcp-servers-'));
const saved = { ...process.env };
before(() => {
  resetProcessState();
  process.env.DATABASE_PATH = join(dir, 'app.db');
});
after(() => {
  getPool().sync([]);
  resetProcessState();
  process.env = { ...saved };
  rmSync(dir, { recursive: true, force: true });
});

test("the list's on/off switch (no If-Match) during an edit form's save keeps the form's changes", async () => {
  // Per-user: nothing connects until a user uses it.
  const created = await createServer({
    name: 'switched',
    transport: 'stdio',
    command: 'true',
    scope: 'user',
  });
  // Both read the same version; the form writes first, then the switch, whose merge started from the old one.
  const [form, toggle] = await Promise.all([
    updateServer(created.id, { args: ['--new'], timeoutMs: 5000 }, new Date(created.updatedAt)),
    updateServer(created.id, { enabled: false }),
  ]);
  assert.deepEqual([form.enabled, toggle.enabled], [true, false]);
  const stored = await getMcpServer(getDb(), created.id);
  assert.ok(stored?.config.transport === 'stdio');
  assert.deepEqual(
    { enabled: stored.config.enabled, args: stored.config.args, timeoutMs: stored.config.timeoutMs },
    { enabled: false, args: ['--new'], timeoutMs: 5000 },
  );
  assert.ok(stored.updatedAt > new Date(form.updatedAt), 'the switch wrote a version after the form');
});

test('PATCHes without If-Match at once (API clients) each apply their fields to what the others wrote', async () => {
  const created = await createServer({ name: 'patched', transport: 'stdio', command: 'true', scope: 'user' });
  await Promise.all([
    updateServer(created.id, { timeoutMs: 7000 }),
    updateServer(created.id, { allow: ['admin'] }),
    updateServer(created.id, { args: ['-v'] }),
    updateServer(created.id, { enabled: false }),
  ]);
  const stored = await getMcpServer(getDb(), created.id);
  assert.ok(stored?.config.transport === 'stdio');
  const { timeoutMs, allow, args, enabled } = stored.config;
  assert.deepEqual(
    { timeoutMs, allow, args, enabled },
    { timeoutMs: 7000, allow: ['admin'], args: ['-v'], enabled: false },
  );
});
