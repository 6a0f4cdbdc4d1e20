import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Bus } from '@/lib/shared/bus';
import { Invalidations } from '@/lib/shared/invalidation';
import { eventually, startRedisForFile } from '@/lib/shared/test-redis';

const redis = startRedisForFile();

test('an admin change published on A is applied by B (with its payload), never again by A', async () => {
  const a = new Invalidations(new Bus(redis.connections(), 'a'));
  const b = new Invalidations(new Bus(redis.connections(), 'b'));
  const appliedOnA: string[] = [];
  const appliedOnB: string[] = [];
  for (const topic of ['settings', 'users', 'providers'] as const) {
    await a.on(topic, (p) => appliedOnA.push(`${topic}:${p ?? ''}`));
    // Registered twice (two module graphs): the refresh still runs once.
    await b.on(topic, () => appliedOnB.push(`first handler of ${topic}`));
    await b.on(topic, (p) => appliedOnB.push(`${topic}:${p ?? ''}`));
  }
  await a.publish('settings');
  await a.publish('users', 'user-1');
  await a.publish('tools'); // B has no handler for it: ignored
  await a.publish('providers');
  await eventually(() => appliedOnB.length >= 3);
  assert.deepEqual(appliedOnB, ['settings:', 'users:user-1', 'providers:']);
  await b.publish('users', 'user-2');
  // A hears B; had A's own three messages come back to A, they arrived before this one.
  await eventually(() => appliedOnA.length >= 1);
  assert.deepEqual(appliedOnA, ['users:user-2']);
});
