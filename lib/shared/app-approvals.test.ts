import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import {
  type AppApprovals,
  MemoryAppApprovals,
  type PendingApproval,
  RedisAppApprovals,
} from '@/lib/shared/app-approvals';
import { startRedisForFile } from '@/lib/shared/test-redis';

const redis = startRedisForFile();

/** The same cases against both stores: [A, B] are two instances (in memory there is only one process). */
const stores: Record<string, (ttlMs: number) => [AppApprovals, AppApprovals]> = {
  memory: (ttlMs) => {
    const one = new MemoryAppApprovals(ttlMs);
    return [one, one];
  },
  redis: (ttlMs) => [
    new RedisAppApprovals(redis.connections(), ttlMs),
    new RedisAppApprovals(redis.connections(), ttlMs),
  ],
};

const approval: PendingApproval = {
  userId: 'u1',
  conversationId: 'conv-1',
  server: 'apps',
  tool: 'app_record',
  args: '{"item":"apple"}',
};

for (const [name, pair] of Object.entries(stores)) {
  describe(name, () => {
    test('an approval issued on A is taken once on B; a second take on either finds nothing', async () => {
      const [a, b] = pair(60_000);
      const id = await a.issue(approval);
      const other = await a.issue({ ...approval, args: '{"item":"plum"}' });
      assert.notEqual(id, other);
      assert.deepEqual(await b.take(id, 'u1'), approval);
      assert.equal(await b.take(id, 'u1'), null);
      assert.equal(await a.take(id, 'u1'), null);
      assert.deepEqual(await a.take(other, 'u1'), { ...approval, args: '{"item":"plum"}' }, 'others stay');
    });

    test('two takes at once on A and B: exactly one gets it', async () => {
      const [a, b] = pair(60_000);
      const id = await a.issue(approval);
      const taken = await Promise.all([a.take(id, 'u1'), b.take(id, 'u1')]);
      assert.equal(taken.filter((t) => t !== null).length, 1);
    });

    test('an approval past its time to live, or never issued, finds nothing', async () => {
      const [a, b] = pair(50);
      const id = await a.issue(approval);
      await sleep(120);
      assert.equal(await b.take(id, 'u1'), null);
      assert.equal(await a.take(id, 'u1'), null);
      assert.equal(await b.take(crypto.randomUUID(), 'u1'), null);
    });

    test("another user's take reads the approval and leaves it: its owner still takes it, once", async () => {
      const [a, b] = pair(60_000);
      const id = await a.issue(approval);
      assert.deepEqual(await b.take(id, 'u2'), approval);
      assert.deepEqual(await a.take(id, 'u2'), approval);
      assert.deepEqual(await b.take(id, 'u1'), approval);
      assert.equal(await a.take(id, 'u1'), null);
      assert.equal(await b.take(id, 'u2'), null);
    });
  });
}
