import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type RedisServer, startRedisServer } from '@/e2e/fixtures/redis-server';
import { Bus } from '@/lib/shared/bus';
import { RedisConnections } from '@/lib/shared/redis';

let server: RedisServer;
const open: RedisConnections[] = [];
const connections = () => {
  const c = new RedisConnections(server.url);
  open.push(c);
  return c;
};
before(async () => {
  server = await startRedisServer();
});
after(async () => {
  await Promise.all(open.map((c) => c.close()));
  await server.stop();
});

/** Collects messages; `until(n)` resolves once n have arrived. */
function inbox() {
  const got: unknown[] = [];
  let waiting: { n: number; resolve: () => void } | undefined;
  return {
    got,
    push: (p: unknown) => {
      got.push(p);
      if (waiting && got.length >= waiting.n) waiting.resolve();
    },
    until: (n: number) =>
      new Promise<void>((resolve) => {
        if (got.length >= n) resolve();
        else waiting = { n, resolve };
      }),
  };
}

test('a message published by one instance reaches the other subscribed instances, never its sender', async () => {
  const a = new Bus(connections(), 'a');
  const b = new Bus(connections(), 'b');
  const c = new Bus(connections(), 'c');
  const atA = inbox();
  const atC = inbox();
  const otherAtA = inbox();
  await a.subscribe('settings', atA.push);
  await c.subscribe('settings', atC.push);
  await a.subscribe('other', otherAtA.push);
  await a.publish('settings', { n: 1 });
  await c.publish('other', 'marker');
  // Redis delivers in the order it ran the publishes: had a's own message come back, it came first.
  await otherAtA.until(1);
  assert.deepEqual(atA.got, [], 'the sender does not get its own message');
  await b.publish('settings', { n: 2 });
  await atC.until(2);
  await atA.until(1);
  assert.deepEqual(atC.got, [{ n: 1 }, { n: 2 }]);
  assert.deepEqual(atA.got, [{ n: 2 }]);
});

test('an unsubscribed handler gets nothing more; channels are independent', async () => {
  const a = new Bus(connections(), 'a');
  const b = new Bus(connections(), 'b');
  const tools = inbox();
  const settings = inbox();
  const off = await a.subscribe('tools', tools.push);
  await a.subscribe('settings', settings.push);
  await b.publish('tools', 1);
  await tools.until(1);
  off();
  await b.publish('tools', 2);
  await b.publish('settings', 3);
  await settings.until(1);
  assert.deepEqual(tools.got, [1]);
  assert.deepEqual(settings.got, [3]);
});
