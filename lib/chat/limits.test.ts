import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertWithinCeilings, effectiveLimit } from '@/lib/chat/limits';
import { AppError } from '@/lib/errors';

const ADMIN = { maxSteps: 10, maxToolCalls: 20 };

describe('effectiveLimit', () => {
  test("A6: a turn runs with the conversation's own limit, never above the admin's current one", () => {
    assert.equal(effectiveLimit(null, 10), 10);
    assert.equal(effectiveLimit(undefined, 10), 10);
    assert.equal(effectiveLimit(3, 10), 3);
    assert.equal(effectiveLimit(10, 10), 10);
    // Stored when the admin allowed 50; the admin has since lowered the limit to 2.
    assert.equal(effectiveLimit(50, 2), 2);
  });
});

describe('assertWithinCeilings', () => {
  test("A6: a limit above the admin's is a 400 naming the field and the ceiling; at or below it passes", () => {
    assert.doesNotThrow(() => assertWithinCeilings({}, ADMIN));
    assert.doesNotThrow(() => assertWithinCeilings({ maxSteps: 10, maxToolCalls: 1 }, ADMIN));
    assert.doesNotThrow(() =>
      assertWithinCeilings({ maxSteps: null, maxToolCalls: null, toolMode: 'off' }, ADMIN),
    );
    for (const [field, value, ceiling] of [
      ['maxSteps', 11, 10],
      ['maxToolCalls', 200, 20],
    ] as const) {
      assert.throws(
        () => assertWithinCeilings({ [field]: value }, ADMIN),
        (err) =>
          err instanceof AppError &&
          err.code === 'bad_request' &&
          err.message === `${field} must be at most ${ceiling}, the admin's limit.` &&
          err.fields?.[field] === `must be at most ${ceiling} (the admin's limit)`,
      );
    }
  });
});
