import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdleMemoryRelease } from './idle-memory';

// The quiet period is a timer: the clock is moved by hand, so "after" and "not before" are exact.

test('memory is released once, after the last turn ends and the server stays quiet', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let collected = 0;
  const idle = new IdleMemoryRelease(30, () => collected++);
  const endA = idle.begin();
  const endB = idle.begin();
  endA();
  t.mock.timers.tick(60);
  assert.equal(collected, 0, 'another turn was still streaming');
  endB();
  endB(); // ending twice counts once
  t.mock.timers.tick(29);
  assert.equal(collected, 0, 'not before the quiet period is over');
  t.mock.timers.tick(1);
  assert.equal(collected, 1);
  t.mock.timers.tick(60);
  assert.equal(collected, 1, 'no second collection without new work');
});

test('a turn that starts during the quiet period postpones the release', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let collected = 0;
  const idle = new IdleMemoryRelease(40, () => collected++);
  idle.begin()();
  t.mock.timers.tick(10);
  const end = idle.begin();
  t.mock.timers.tick(60);
  assert.equal(collected, 0, 'a turn is running');
  end();
  t.mock.timers.tick(39);
  assert.equal(collected, 0, 'the quiet period starts over when the turn ends');
  t.mock.timers.tick(1);
  assert.equal(collected, 1);
});
