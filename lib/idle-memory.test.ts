import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { IdleMemoryRelease } from './idle-memory';

test('memory is released once, after the last turn ends and the server stays quiet', async () => {
  let collected = 0;
  const idle = new IdleMemoryRelease(30, () => collected++);
  const endA = idle.begin();
  const endB = idle.begin();
  endA();
  await sleep(60);
  assert.equal(collected, 0, 'another turn was still streaming');
  endB();
  endB(); // ending twice counts once
  await sleep(60);
  assert.equal(collected, 1);
  await sleep(60);
  assert.equal(collected, 1, 'no second collection without new work');
});

test('a turn that starts during the quiet period postpones the release', async () => {
  let collected = 0;
  const idle = new IdleMemoryRelease(40, () => collected++);
  idle.begin()();
  await sleep(10);
  const end = idle.begin();
  await sleep(60);
  assert.equal(collected, 0, 'a turn is running');
  end();
  await sleep(80);
  assert.equal(collected, 1);
});
