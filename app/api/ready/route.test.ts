import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, beforeEach, test } from 'node:test';
import { checkReadiness, provideRedisPing } from '@/app/_server/readiness';
import { beginDraining } from '@/app/_server/shutdown';
import { GET } from '@/app/api/ready/route';
import { getDb } from '@/db/client';
import { processState, resetProcessState } from '@/lib/process-state';

// GET /api/ready against a real database file: the checks, the 503s, and no secret in the body.

const root = mkdtempSync(join(tmpdir(), 'ready-'));
const saved = { ...process.env };
const REDIS_URL = 'redis://:hunter2-secret@redis.internal:6379/0';

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

test('with REDIS_URL: 503 until a Redis ping is provided, then 200 while it answers', async () => {
  process.env.REDIS_URL = REDIS_URL;
  const missing = await ready();
  assert.equal(missing.status, 503);
  assert.deepEqual(missing.body, { ok: false, checks: { process: 'ok', database: 'ok', redis: 'failed' } });

  let pings = 0;
  provideRedisPing(async () => {
    pings++;
    return 'PONG';
  });
  const up = await ready();
  assert.equal(up.status, 200);
  assert.deepEqual(up.body, { ok: true, checks: { process: 'ok', database: 'ok', redis: 'ok' } });
  assert.equal(pings, 1);
});

test('with REDIS_URL: a failing ping is a 503 whose body carries no part of the URL or the error', async () => {
  process.env.REDIS_URL = REDIS_URL;
  provideRedisPing(async () => {
    throw new Error(`connect ECONNREFUSED ${REDIS_URL}`);
  });
  const down = await ready();
  assert.equal(down.status, 503);
  assert.deepEqual(down.body, { ok: false, checks: { process: 'ok', database: 'ok', redis: 'failed' } });
  for (const secret of ['hunter2', 'redis.internal', 'ECONNREFUSED']) assert.ok(!down.text.includes(secret));
});

test('a check that never answers counts as a timeout, so the probe itself answers', async () => {
  process.env.REDIS_URL = REDIS_URL;
  provideRedisPing(() => new Promise(() => {}));
  assert.deepEqual(await checkReadiness(50), {
    ok: false,
    checks: { process: 'ok', database: 'ok', redis: 'timeout' },
  });
});
