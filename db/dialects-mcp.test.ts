/**
 * MCP servers and tools behave the same on both databases when several write at once: a tool's first
 * setting racing its first sighting, and the same servers imported by several instances. Runs on SQLite,
 * then again on a real Postgres (db/dialect-harness.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '@/db/client';
import { dialect, dialectHarness } from '@/db/dialect-harness';
import { createMcpServer, getMcpServerByName, upsertMcpServers } from '@/db/queries/mcp-servers';
import { listToolSettings, observeToolDefinitions, updateToolSetting } from '@/db/queries/mcp-tools';
import { McpServerConfigSchema } from '@/lib/schemas/mcp';

let db: Db;
const { rerunOnPostgres } = dialectHarness(import.meta.url, (opened) => {
  db = opened;
});

test(`${dialect}: a tool's first setting and its first sighting at once: one row, the admin's choice kept`, async () => {
  const server = await createMcpServer(db, {
    name: 'tools-race',
    transport: 'builtin',
    allow: ['*'],
    scope: 'shared',
    userValues: [],
    builtin: 'time',
    enabled: true,
    timeoutMs: 60_000,
  });
  assert.ok(server);
  // An admin sets a tool's approval while the server's tool list (naming it for the first time)
  // is being recorded: on Postgres the two run on different connections, or instances.
  const defs = Array.from({ length: 20 }, (_, i) => ({
    name: `t${i}`,
    description: `tool ${i}`,
    inputSchema: { type: 'object' as const },
  }));
  await Promise.all([
    observeToolDefinitions(db, server.id, defs),
    ...defs.map((def) => updateToolSetting(db, server.id, def.name, { approval: 'auto' }, def)),
    observeToolDefinitions(db, server.id, defs),
  ]);
  const rows = (await listToolSettings(db)).filter((r) => r.serverId === server.id);
  assert.equal(rows.length, 20);
  assert.deepEqual(
    rows.map((r) => [r.approval, r.changed]),
    defs.map(() => ['auto', false]),
  );
});

test(`${dialect}: the same servers imported by several at once (instances starting with one servers file)`, async () => {
  const configs = ['imp-a', 'imp-b', 'imp-c'].map((name) =>
    McpServerConfigSchema.parse({ name, transport: 'http', url: `https://${name}.example.com/mcp` }),
  );
  const results = await Promise.all(Array.from({ length: 6 }, () => upsertMcpServers(db, configs)));
  // Each server is added once, by whichever came first; the others find it unchanged.
  assert.deepEqual(results.flatMap((r) => r.added).sort(), ['imp-a', 'imp-b', 'imp-c']);
  assert.equal(results.flatMap((r) => r.unchanged).length, 15);
  for (const c of configs) assert.equal((await getMcpServerByName(db, c.name))?.config.name, c.name);
});

rerunOnPostgres();
