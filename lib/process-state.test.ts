import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { dropProcessState, processState, resetProcessState } from '@/lib/process-state';
import { WindowLimiter } from '@/lib/rate-limit';

afterEach(() => resetProcessState());

const limiter = () => new WindowLimiter(1, 60_000);

test('a slot is created on first use only, and the same value comes back after', () => {
  let created = 0;
  const create = () => {
    created++;
    return limiter();
  };
  const first = processState('importLimiter', create);
  assert.equal(processState('importLimiter', create), first);
  assert.equal(created, 1);
});

test('a slot is shared by every copy of its owner: it lives on globalThis, not in the module', async () => {
  const made = limiter();
  processState('importLimiter', () => made);
  // A second copy of the registry module, as Next gives each module graph its own copy.
  const copy = (await import(
    `@/lib/process-state?copy=${Date.now()}`
  )) as typeof import('@/lib/process-state');
  assert.notEqual(copy.processState, processState, 'a separate copy of the module');
  assert.equal(
    copy.processState('importLimiter', () => assert.fail('the slot exists already')),
    made,
  );
});

test('a failed creation stores nothing; the next use tries again', () => {
  assert.throws(() =>
    processState('importLimiter', () => {
      throw new Error('no');
    }),
  );
  const made = limiter();
  assert.equal(
    processState('importLimiter', () => made),
    made,
  );
});

test('dropProcessState forgets one slot, resetProcessState all of them', () => {
  const a = processState('importLimiter', limiter);
  const b = processState('unreadableSecrets', () => new Set(['x']));
  dropProcessState('importLimiter');
  assert.notEqual(processState('importLimiter', limiter), a, 'created afresh');
  assert.equal(
    processState('unreadableSecrets', () => new Set()),
    b,
    'the other slot is kept',
  );
  resetProcessState();
  const fresh = processState('unreadableSecrets', () => new Set());
  assert.notEqual(fresh, b);
  assert.equal(fresh.size, 0);
});
