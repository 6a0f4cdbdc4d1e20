import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { after, afterEach, beforeEach, test } from 'node:test';
import { checkReadiness } from '@/app/_server/readiness';
import { beginDraining } from '@/app/_server/shutdown';
import { GET } from '@/app/api/ready/route';
import { getDb } from '@/db/client';
import { startRedisServer } from '@/e2e/fixtures/redis-server';
import { processState, resetProcessState } from '@/lib/process-state';
import { closeSharedRedis, sharedRedis } from '@/lib/shared/redis';

// GET /api/ready against a real database file: the checks, the 503s, and no secret in the body.

const root = mkdtempSync(join(tmpdir(), 'ready-'));
const saved = { ...process.env };

beforeEach(() => {
  resetProcessState();
  process.env = { ...saved, DATABASE_PATH: join(root, 'data', 'app.db') };
  delete process.env.REDIS_URL;
  getDb(); // created and migrated, as at start
});
afterEach(() => resetProcessState());
after(() => {
  process.env = { ...saved };
  rmSync(root, { recursive: true, force: true });
});

async function ready(): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const res = await GET(new Request('http://localhost/api/ready'), undefined);
  const text = await res.text();
  assert.equal(res.headers.get('cache-control'), 'no-store');
  return { status: res.status, body: JSON.parse(text), text };
}

test('200 with the database check when the database answers and no Redis is configured', async () => {
  assert.deepEqual(await ready(), {
    status: 200,
    body: { ok: true, checks: { process: 'ok', database: 'ok' } },
    text: JSON.stringify({ ok: true, checks: { process: 'ok', database: 'ok' } }),
  });
});

test('503 naming the database when it does not answer', async () => {
  await processState('db', () => assert.fail('opened above')).close();
  const { status, body } = await ready();
  assert.equal(status, 503);
  assert.deepEqual(body, { ok: false, checks: { process: 'ok', database: 'failed' } });
});

test('503 while the process is draining (SIGTERM), though the database answers', async () => {
  beginDraining();
  const { status, body } = await ready();
  assert.equal(status, 503);
  assert.deepEqual(body, { ok: false, checks: { process: 'draining', database: 'ok' } });
});

test('with REDIS_URL: 200 while the real Redis answers PING; 503 naming Redis once it is gone', async () => {
  const redis = await startRedisServer();
  try {
    process.env.REDIS_URL = redis.url;
    resetProcessState(); // the environment is read once per process
    const up = await ready();
    assert.equal(up.status, 200);
    assert.deepEqual(up.body, { ok: true, checks: { process: 'ok', database: 'ok', redis: 'ok' } });
    await redis.stop();
    const down = await checkReadiness(1_000);
    assert.equal(down.ok, false);
    assert.notEqual(down.checks.redis, 'ok');
  } finally {
    await closeSharedRedis();
    await redis.stop();
  }
});

test('with REDIS_URL: an unreachable Redis is a 503 whose body carries no part of the URL or the error', async () => {
  process.env.REDIS_URL = `redis://:hunter2-secret@127.0.0.1:${await closedPort()}/0`;
  resetProcessState();
  try {
    const down = await ready();
    assert.equal(down.status, 503);
    assert.equal(down.body.ok, false);
    assert.notEqual((down.body.checks as Record<string, string>).redis, 'ok');
    for (const secret of ['hunter2', '127.0.0.1', 'ECONNREFUSED']) assert.ok(!down.text.includes(secret));
  } finally {
    await closeSharedRedis();
  }
});

test('a check that never answers counts as a timeout, so the probe itself answers', async () => {
  // A server that accepts the connection and never says a word.
  const silent = createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  process.env.REDIS_URL = `redis://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  resetProcessState();
  try {
    assert.deepEqual(await checkReadiness(200), {
      ok: false,
      checks: { process: 'ok', database: 'ok', redis: 'timeout' },
    });
  } finally {
    sharedRedis()?.command.disconnect();
    await closeSharedRedis().catch(() => {});
    silent.close();
  }
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}
