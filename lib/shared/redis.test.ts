import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, test } from 'node:test';
import { startRedisServer } from '@/e2e/fixtures/redis-server';
import { getEnv } from '@/lib/env';
import { resetProcessState } from '@/lib/process-state';
import { closeSharedRedis, hasSharedStore, redisKey, sharedRedis } from '@/lib/shared/redis';

const root = mkdtempSync(join(tmpdir(), 'redis-env-'));
const saved = { ...process.env };
function freshEnv(vars: Record<string, string | undefined>) {
  resetProcessState();
  process.env = { ...saved, DATABASE_PATH: join(root, 'app.db'), ...vars };
  if (vars.REDIS_URL === undefined) delete process.env.REDIS_URL;
  return getEnv();
}
afterEach(() => {
  resetProcessState();
  process.env = { ...saved };
});
after(() => rmSync(root, { recursive: true, force: true }));

test('REDIS_URL must be a redis:// or rediss:// URL; unset or blank means no shared store', () => {
  assert.throws(() => freshEnv({ REDIS_URL: 'http://127.0.0.1:6379' }), /REDIS_URL: must be a redis/);
  assert.throws(() => freshEnv({ REDIS_URL: 'not a url' }), /REDIS_URL/);
  assert.equal(
    freshEnv({ REDIS_URL: 'rediss://cache.internal:6380/2' }).REDIS_URL,
    'rediss://cache.internal:6380/2',
  );
  freshEnv({ REDIS_URL: '' });
  assert.equal(hasSharedStore(), false);
  assert.equal(sharedRedis(), null);
  freshEnv({});
  assert.equal(sharedRedis(), null);
});

test('with REDIS_URL the process gets one set of connections, prefixed keys, closed at shutdown', async () => {
  const server = await startRedisServer();
  try {
    freshEnv({ REDIS_URL: server.url });
    const redis = sharedRedis();
    assert.ok(redis);
    assert.equal(sharedRedis(), redis, 'one per process');
    await redis.command.set(redisKey('probe'), 'x');
    assert.deepEqual(await redis.command.keys('*'), ['mcpchat:probe']);
    await closeSharedRedis();
    assert.equal(redis.command.status, 'end');
  } finally {
    await server.stop();
  }
});
