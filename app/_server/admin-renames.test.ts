// An admin renames a provider or an MCP server to a name another one has: taken before (a typo, a stale
// list) or a moment ago (two admins renaming two of them to one name at once). Each is the 409 adding one
// with that name gets, not a 500 from the unique index. Runs on SQLite, then again on a real Postgres
// (db/dialect-harness.ts), whose unique violation has another shape and whose two writes run on two connections.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

const dir = mkdtempSync(join(tmpdir(), 'admin-renames-'));
process.env.DATABASE_PATH = join(dir, 'app.db');

const { addProvider, editProvider } = await import('@/app/_server/providers-admin');
const { createServer, updateServer } = await import('@/app/_server/mcp-servers');
const { databaseReady, getDb } = await import('@/db/client');
const { listProviders } = await import('@/db/queries/providers');
const { listMcpServers } = await import('@/db/queries/mcp-servers');
const { errorResponse } = await import('@/lib/http');
const { getPool } = await import('@/lib/mcp/pool');
const { processState } = await import('@/lib/process-state');
const { dialect, rerunFileOnPostgres } = await import('@/db/dialect-harness');

const scenarios: string[] = [];

before(() => databaseReady());
after(async () => {
  getPool().sync([]);
  await processState('db', () => {
    throw new Error('no database was opened');
  }).close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the route answers for a call: its status and error body (a thrown error through errorResponse). */
async function answer(call: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await call;
    return { status: 200, body: null };
  } catch (err) {
    const res = errorResponse(err);
    return { status: res.status, body: await res.json() };
  }
}

const provider = (name: string) => addProvider({ name, baseURL: 'http://127.0.0.1:9/v1' } as never);
/** A per-user server: nothing connects until a user uses it. */
const server = (name: string) => createServer({ name, transport: 'stdio', command: 'true', scope: 'user' });

test(`${dialect}: renaming a provider to a taken name is a 409, at once or a moment after another rename`, async (t) => {
  scenarios.push(t.name);
  const [a, b, c] = [await provider('Alpha'), await provider('Beta'), await provider('Gamma')];
  assert.deepEqual(await answer(editProvider(b.id, { name: 'Alpha' })), {
    status: 409,
    body: {
      error: {
        code: 'conflict',
        message: 'A provider named "Alpha" exists.',
        fields: { name: 'is already taken' },
      },
    },
  });
  // Two admins rename two providers to one new name at the same moment: one wins, the other is told.
  const both = await Promise.all([
    answer(editProvider(b.id, { name: 'Delta' })),
    answer(editProvider(c.id, { name: 'Delta' })),
  ]);
  assert.deepEqual(both.map((r) => r.status).sort(), [200, 409], JSON.stringify(both));
  const names = (await listProviders(getDb())).map((p) => p.name).sort();
  assert.ok(
    JSON.stringify(names) === JSON.stringify(['Alpha', 'Beta', 'Delta']) ||
      JSON.stringify(names) === JSON.stringify(['Alpha', 'Delta', 'Gamma']),
    names.join(', '),
  );
  // A rename to its own name, and to a free one, still work.
  assert.equal((await answer(editProvider(a.id, { name: 'Alpha' }))).status, 200);
  assert.equal((await answer(editProvider(a.id, { name: 'Omega' }))).status, 200);
});

test(`${dialect}: renaming an MCP server to a taken name is a 409, at once or a moment after another rename`, async (t) => {
  scenarios.push(t.name);
  const [, b, c] = [await server('alpha'), await server('beta'), await server('gamma')];
  assert.deepEqual(await answer(updateServer(b.id, { name: 'alpha' })), {
    status: 409,
    body: {
      error: {
        code: 'conflict',
        message: 'A server named "alpha" exists.',
        fields: { name: 'is already taken' },
      },
    },
  });
  assert.equal(
    (await answer(updateServer(b.id, { name: 'alpha' }, new Date(b.updatedAt)))).status,
    409,
    'the edit form (If-Match) too',
  );
  const both = await Promise.all([
    answer(updateServer(b.id, { name: 'delta' })),
    answer(updateServer(c.id, { name: 'delta' })),
  ]);
  assert.deepEqual(both.map((r) => r.status).sort(), [200, 409], JSON.stringify(both));
  const names = (await listMcpServers(getDb())).map((s) => s.config.name).sort();
  assert.ok(
    JSON.stringify(names) === JSON.stringify(['alpha', 'beta', 'delta']) ||
      JSON.stringify(names) === JSON.stringify(['alpha', 'delta', 'gamma']),
    names.join(', '),
  );
});

rerunFileOnPostgres(import.meta.url, scenarios);
