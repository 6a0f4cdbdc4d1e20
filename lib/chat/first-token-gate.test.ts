import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FirstTokenGate } from '@/lib/chat/first-token-gate';

const settledWithin = async (p: Promise<void>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

test('with no turn waiting, work that can wait goes at once', async () => {
  assert.equal(await settledWithin(new FirstTokenGate().clear(10_000), 50), true);
});

test('it waits until every waiting turn has its first token; ending twice counts once', async () => {
  const gate = new FirstTokenGate();
  const a = gate.begin();
  const b = gate.begin();
  const cleared = gate.clear(10_000);
  a();
  a();
  assert.equal(gate.figures().waitingForFirstToken, 1);
  assert.equal(await settledWithin(cleared, 50), false, 'b still waits');
  b();
  assert.equal(await settledWithin(cleared, 50), true);
  assert.deepEqual(gate.figures(), { waitingForFirstToken: 0, preparationsQueued: 0, workHeldBack: 0 });
});

test('it never waits longer than its bound (turns that keep coming do not starve it)', async () => {
  const gate = new FirstTokenGate();
  gate.begin();
  const started = Date.now();
  await gate.clear(80);
  assert.ok(Date.now() - started >= 70);
  // Work that gave up waiting is not kept while turns keep waiting (steady load).
  await Promise.all(Array.from({ length: 100 }, () => gate.clear(5)));
  assert.deepEqual(gate.figures(), { waitingForFirstToken: 1, preparationsQueued: 0, workHeldBack: 0 });
});

test('preparations run one at a time in arrival order; a failed one gives up its place', async () => {
  const gate = new FirstTokenGate();
  const log: string[] = [];
  let running = 0;
  const prep = (name: string, fail = false) =>
    gate.prepare(async () => {
      running++;
      log.push(`${name} start (${running} running)`);
      await new Promise((r) => setTimeout(r, 10));
      running--;
      log.push(`${name} end`);
      if (fail) throw new Error(`${name} failed`);
      return name;
    }, 10_000);
  const results = await Promise.allSettled([prep('a'), prep('b', true), prep('c')]);
  assert.deepEqual(
    results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
    ['a', 'b failed', 'c'],
  );
  assert.deepEqual(log, [
    'a start (1 running)',
    'a end',
    'b start (1 running)',
    'b end',
    'c start (1 running)',
    'c end',
  ]);
});

test('what a turn sends right after its preparation (its model request) goes out before the next preparation', async () => {
  const gate = new FirstTokenGate();
  const log: string[] = [];
  const turn = async (name: string) => {
    await gate.prepare(async () => void log.push(`${name} prepared`), 10_000);
    // undici writes a request on a reused keep-alive socket on the check phase after it is made.
    await new Promise((written) => setImmediate(written));
    log.push(`${name} request written`);
  };
  await Promise.all([turn('a'), turn('b'), turn('c')]);
  assert.deepEqual(log, [
    'a prepared',
    'a request written',
    'b prepared',
    'b request written',
    'c prepared',
    'c request written',
  ]);
});

test('a preparation that waits (a slow MCP server) lets the next one start after the hold time', async () => {
  const gate = new FirstTokenGate();
  let finishSlow = () => {};
  const slow = gate.prepare(() => new Promise<string>((r) => (finishSlow = () => r('slow'))), 30);
  const started = Date.now();
  const quick = await gate.prepare(async () => 'quick', 30);
  assert.equal(quick, 'quick');
  assert.ok(Date.now() - started >= 25, 'it waited for the hold time first');
  finishSlow();
  assert.equal(await slow, 'slow');
  // Both places are given back once: two more run one at a time, not at once.
  let running = 0;
  let most = 0;
  const count = () =>
    gate.prepare(async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
    }, 10_000);
  await Promise.all([count(), count(), count()]);
  assert.equal(most, 1);
});
