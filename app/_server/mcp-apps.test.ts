import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { applyServerConfigs } from '@/app/_server/mcp';
import { type AppCall, callToolFromApp } from '@/app/_server/mcp-apps';
import { createServer } from '@/app/_server/mcp-servers';
import { getDb } from '@/db/client';
import { conversations, user } from '@/db/tables';
import { type RedisServer, startRedisServer } from '@/e2e/fixtures/redis-server';
import { AppError } from '@/lib/errors';
import { getPool } from '@/lib/mcp/pool';
import { resetProcessState } from '@/lib/process-state';
import { closeSharedRedis } from '@/lib/shared/redis';

// An app's tool call that needs approval, asked on one app process and answered on another (the
// workers of `npm start`, or instances behind a load balancer): both share SQLite here and Redis.
// "Another process" is this one with its process state forgotten (its own pool, connections, memory).

const dir = mkdtempSync(join(tmpdir(), 'mcp-apps-'));
const saved = { ...process.env };
let server: RedisServer;

const alice = { id: 'app-alice', name: 'Alice', email: 'app-alice@example.com', role: 'user' as const };
const call: AppCall = {
  conversationId: 'app-conv-1',
  server: 'apps',
  tool: 'app_record',
  arguments: { item: 'apple' },
};

/** Ends this "process" (its MCP children and Redis connections) and starts the next one. */
async function nextProcess(): Promise<void> {
  getPool().sync([]);
  await closeSharedRedis();
  resetProcessState();
  await applyServerConfigs();
}

before(async () => {
  server = await startRedisServer();
  resetProcessState();
  Object.assign(process.env, { REDIS_URL: server.url, DATABASE_PATH: join(dir, 'app.db') });
  await getDb().insert(user).values(alice);
  await getDb().insert(conversations).values({ id: call.conversationId, userId: alice.id, title: 't' });
  await createServer({
    name: 'apps',
    transport: 'stdio',
    command: process.execPath,
    args: [resolve('e2e/fixtures/test-mcp-server-apps.mjs')],
  });
});
after(async () => {
  getPool().sync([]);
  await closeSharedRedis();
  resetProcessState();
  process.env = saved;
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const notWaiting = (err: unknown) =>
  err instanceof AppError && err.code === 'not_found' && /not waiting/.test(err.message);

test('an approval asked on one process is answered on another, once', async () => {
  const asked = await callToolFromApp(alice, call);
  assert.ok(asked.status === 'approval-required');
  await nextProcess();
  const done = await callToolFromApp(alice, { ...call, approval: { id: asked.approvalId, approved: true } });
  assert.ok(done.status === 'done');
  assert.deepEqual(done.result.content, [{ type: 'text', text: 'recorded apple' }]);
  await assert.rejects(
    callToolFromApp(alice, { ...call, approval: { id: asked.approvalId, approved: true } }),
    notWaiting,
    'the same answer again runs nothing',
  );
  await nextProcess();
  await assert.rejects(
    callToolFromApp(alice, { ...call, approval: { id: asked.approvalId, approved: true } }),
    notWaiting,
    'nor on a third process',
  );
});

test('a denial answered on another process is a denial; an answer for other arguments uses the approval up', async () => {
  const asked = await callToolFromApp(alice, call);
  assert.ok(asked.status === 'approval-required');
  await nextProcess();
  assert.deepEqual(
    await callToolFromApp(alice, { ...call, approval: { id: asked.approvalId, approved: false } }),
    { status: 'denied' },
  );
  const again = await callToolFromApp(alice, call);
  assert.ok(again.status === 'approval-required');
  await nextProcess();
  await assert.rejects(
    callToolFromApp(alice, {
      ...call,
      arguments: { item: 'plum' },
      approval: { id: again.approvalId, approved: true },
    }),
    notWaiting,
  );
  await assert.rejects(
    callToolFromApp(alice, { ...call, approval: { id: again.approvalId, approved: true } }),
    notWaiting,
    'the mismatching answer used it up',
  );
});
