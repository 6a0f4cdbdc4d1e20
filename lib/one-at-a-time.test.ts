import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { oneAtATime } from '@/lib/one-at-a-time';

test('steps under one key run one after another, in the order asked, even when the first is slower', async () => {
  const log: string[] = [];
  const step = (name: string, ms: number) => async () => {
    log.push(`${name} starts`);
    await sleep(ms);
    log.push(`${name} ends`);
    return name;
  };
  // What applyServerConfigs relies on: a slow earlier read cannot finish after a later one.
  const results = await Promise.all([
    oneAtATime('k', step('older read', 30)),
    oneAtATime('k', step('newer read', 1)),
    oneAtATime('other', step('another key', 1)),
  ]);
  assert.deepEqual(results, ['older read', 'newer read', 'another key']);
  assert.deepEqual(
    log.filter((l) => !l.startsWith('another')),
    ['older read starts', 'older read ends', 'newer read starts', 'newer read ends'],
  );
  // Another key does not wait.
  assert.ok(log.indexOf('another key ends') < log.indexOf('older read ends'));
});

test('a failed step rejects its caller alone; the next step still runs', async () => {
  const failed = oneAtATime('f', async () => {
    throw new Error('no database');
  });
  const next = oneAtATime('f', async () => 'ran');
  await assert.rejects(failed, /no database/);
  assert.equal(await next, 'ran');
});
