import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Bus } from '@/lib/shared/bus';
import type { RedisConnections } from '@/lib/shared/redis';
import { eventually, startRedisForFile } from '@/lib/shared/test-redis';
import { type TurnLeaseOptions, TurnLeases } from '@/lib/shared/turn-leases';

const redis = startRedisForFile();

/** One app instance's leases, with the turns it runs as abort controllers. */
function instance(name: string, options: Partial<TurnLeaseOptions> = {}, connections?: RedisConnections) {
  const conns = connections ?? redis.connections();
  const running = new Map<string, AbortController>();
  const leases = new TurnLeases(
    conns,
    new Bus(conns, name),
    (id) => running.get(id)?.abort(new Error('Stopped')),
    options,
  );
  return { leases, running, conns };
}

test('one instance at a time runs a conversation; the lease is freed when the turn ends', async () => {
  const a = instance('a');
  const b = instance('b');
  assert.equal(await a.leases.claim('c1', 't1'), true);
  assert.equal(await b.leases.claim('c1', 't2'), false, 'B is refused while A runs the turn');
  assert.equal(await b.leases.isRunning('c1'), true);
  assert.equal(await b.leases.claim('other', 't3'), true, 'other conversations are free');
  await b.leases.release('c1', 't2'); // not B's lease: nothing happens
  assert.equal(await a.leases.isRunning('c1'), true);
  await a.leases.release('c1', 't1');
  assert.equal(await b.leases.isRunning('c1'), false);
  assert.equal(await b.leases.claim('c1', 't4'), true);
  await b.leases.release('c1', 't4');
  await b.leases.release('other', 't3');
});

test("Stop on B aborts A's turn and returns once A has stored its answer", async () => {
  const a = instance('a');
  const b = instance('b');
  await a.leases.start();
  const events: string[] = [];
  const controller = new AbortController();
  a.running.set('c2', controller);
  assert.equal(await a.leases.claim('c2', 't1'), true);
  // A's turn: when aborted, it stores its partial answer (a moment later), then ends.
  controller.signal.addEventListener('abort', () => {
    events.push('aborted on A');
    setTimeout(() => {
      events.push('stored on A');
      a.running.delete('c2');
      void a.leases.release('c2', 't1');
    }, 50);
  });
  assert.equal(await b.leases.requestStop('c2', 10_000), 'stored');
  events.push('stop returned on B');
  assert.deepEqual(events, ['aborted on A', 'stored on A', 'stop returned on B']);
  assert.equal(await b.leases.isRunning('c2'), false);
  assert.equal(await b.leases.requestStop('c2', 10_000), 'none', 'nothing runs there any more');
});

test("a dead owner's lease expires within leaseMs; a live owner's is renewed past it", async () => {
  const options = { leaseMs: 300, renewMs: 100 };
  const a = instance('a', options);
  const b = instance('b', options);
  assert.equal(await a.leases.claim('c3', 't1'), true);
  await new Promise((r) => setTimeout(r, 700)); // more than two lease times
  assert.equal(await b.leases.claim('c3', 't2'), false, 'A renews its lease while its turn runs');
  await a.conns.close(); // instance A dies
  a.leases.dispose();
  await eventually(async () => !(await b.leases.isRunning('c3')));
  assert.equal(await b.leases.claim('c3', 't2'), true, 'B may run the conversation now');
  b.leases.dispose();
});

test("Stop of a dead owner's turn waits at most its bound", async () => {
  const a = instance('a', { leaseMs: 60_000 });
  const b = instance('b');
  assert.equal(await a.leases.claim('c4', 't1'), true);
  a.leases.dispose();
  await a.conns.close(); // nobody answers the stop request
  assert.equal(await b.leases.requestStop('c4', 200), 'unsettled');
});

test('a stopper whose "stored" notice is lost returns once the lease is gone', async () => {
  const a = instance('a');
  const b = instance('b');
  await a.leases.start();
  assert.equal(await a.leases.claim('c5', 't1'), true);
  // A's turn ends without telling anyone (its notice is lost): only its lease goes.
  a.running.set('c5', new AbortController());
  a.running.get('c5')?.signal.addEventListener('abort', () => {
    void a.conns.command.del('mcpchat:lease:c5');
  });
  const outcome = await Promise.race([
    b.leases.requestStop('c5', 600_000),
    new Promise((resolve) => setTimeout(() => resolve('still waiting'), 30_000).unref()),
  ]);
  assert.equal(outcome, 'stored');
  a.leases.dispose();
});

test("an owner waits for another user's claim held on another instance, not for her own turn there", async () => {
  const a = instance('a');
  const b = instance('b');
  // A stranger's request on B claims her conversation until it is refused (a 404), a moment later.
  assert.equal(await b.leases.claim('c6', 'stranger-turn', 'mallory'), true);
  assert.equal(await a.leases.claim('c6', 'owner-turn', 'alice'), false);
  const waiting = a.leases.othersClaimEnded('c6', 'alice', 2_000);
  setTimeout(() => void b.leases.release('c6', 'stranger-turn'), 50);
  assert.equal(await waiting, true);
  assert.equal(await a.leases.claim('c6', 'owner-turn', 'alice'), true);
  // Her own turn running on A (another tab): her next message on B is refused, and so is a turn without a user.
  assert.equal(await b.leases.claim('c6', 'second-tab', 'alice'), false);
  assert.equal(await b.leases.othersClaimEnded('c6', 'alice', 2_000), false);
  assert.equal(await a.leases.isRunning('c6'), true, 'her turn is untouched');
  await a.leases.release('c6', 'owner-turn');
  assert.equal(await a.leases.isRunning('c6'), false, 'released with the user in its value');
  assert.equal(await a.leases.claim('c6', 'userless-turn'), true);
  assert.equal(await b.leases.othersClaimEnded('c6', 'alice', 2_000), false);
  await a.leases.release('c6', 'userless-turn');
  assert.equal(await b.leases.othersClaimEnded('c6', 'alice', 2_000), true, 'nothing holds it');
});
