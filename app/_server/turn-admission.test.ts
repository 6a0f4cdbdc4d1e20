import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admitTurn } from '@/app/_server/turn-admission';
import { AppError } from '@/lib/errors';

// Without REDIS_URL the limits live in this process (lib/shared/limits.ts); the same code asks Redis's.

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof AppError, 'refused');
  return err.message;
};

test('a turn over the per-minute budget is refused and gives back the answer slot it was given meanwhile', async () => {
  const first = await admitTurn('budget-user', 1, 1);
  first();
  // The budget is spent: 429 for the budget, and the slot asked for at the same time is free again.
  assert.match(await refusal(admitTurn('budget-user', 1, 1)), /^Too many messages/);
  // A larger budget (an admin's change) admits the next turn: the one slot is not held by the refusal.
  const next = await admitTurn('budget-user', 100, 1);
  next();
});

test('a turn over the answers-at-once cap is refused; the other limit is not the reason', async () => {
  const held = await admitTurn('cap-user', 100, 1);
  assert.equal(
    await refusal(admitTurn('cap-user', 100, 1)),
    'You already have 1 answers in progress. Wait for one to finish.',
  );
  held();
  const again = await admitTurn('cap-user', 100, 1);
  again();
});
