import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupByDate, historyGroupOf } from '@/lib/history-groups';

// Local-time constructors, so the tests hold in whatever time zone they run.
const at = (day: number, hour = 12, minute = 0) => new Date(2025, 2, day, hour, minute);
const NOW = at(20, 9, 30); // 20 March 2025, 09:30 local

test('boundaries are local midnights, not 24-hour steps', () => {
  assert.equal(historyGroupOf(at(20, 0, 0), NOW), 'Today');
  assert.equal(historyGroupOf(at(20, 9, 29), NOW), 'Today');
  assert.equal(historyGroupOf(new Date(at(20, 0, 0).getTime() - 1), NOW), 'Yesterday');
  assert.equal(historyGroupOf(at(19, 0, 0), NOW), 'Yesterday');
  assert.equal(historyGroupOf(new Date(at(19, 0, 0).getTime() - 1), NOW), 'Previous 7 days');
  assert.equal(historyGroupOf(at(13, 0, 0), NOW), 'Previous 7 days');
  assert.equal(historyGroupOf(new Date(at(13, 0, 0).getTime() - 1), NOW), 'Older');
  assert.equal(historyGroupOf(new Date(2020, 0, 1), NOW), 'Older');
});

test('late yesterday evening is Yesterday even less than 24 hours ago; the future counts as Today', () => {
  assert.equal(historyGroupOf(at(19, 23, 59), at(20, 0, 1)), 'Yesterday');
  assert.equal(historyGroupOf(at(21, 8), NOW), 'Today');
});

test('accepts ISO strings and epoch milliseconds; an unreadable date is Older', () => {
  assert.equal(historyGroupOf(at(20, 8).toISOString(), NOW), 'Today');
  assert.equal(historyGroupOf(at(19, 8).getTime(), NOW), 'Yesterday');
  assert.equal(historyGroupOf('not a date', NOW), 'Older');
});

test('month and year boundaries use the calendar', () => {
  const newYear = new Date(2025, 0, 1, 10);
  assert.equal(historyGroupOf(new Date(2024, 11, 31, 22), newYear), 'Yesterday');
  assert.equal(historyGroupOf(new Date(2024, 11, 25, 1), newYear), 'Previous 7 days');
  assert.equal(historyGroupOf(new Date(2024, 11, 24, 23), newYear), 'Older');
});

test('groupByDate keeps the fixed order, drops empty groups and keeps item order', () => {
  const items = [
    { id: 'a', updatedAt: at(20, 9).toISOString() },
    { id: 'b', updatedAt: at(20, 1).toISOString() },
    { id: 'c', updatedAt: at(15).toISOString() },
    { id: 'd', updatedAt: at(1).toISOString() },
    { id: 'e', updatedAt: at(14).toISOString() },
  ];
  const groups = groupByDate(items, NOW);
  assert.deepEqual(
    groups.map((g) => [g.label, g.items.map((i) => i.id)]),
    [
      ['Today', ['a', 'b']],
      ['Previous 7 days', ['c', 'e']],
      ['Older', ['d']],
    ],
  );
  assert.deepEqual(groupByDate([], NOW), []);
});

test('a 23-hour DST day still spans one calendar day', () => {
  const saved = process.env.TZ;
  process.env.TZ = 'Europe/Berlin';
  try {
    // Clocks jump from 02:00 to 03:00 on 30 March 2025 in Berlin (checked, so the test cannot pass vacuously).
    assert.equal(
      new Date(2025, 2, 29, 12).getTimezoneOffset() - new Date(2025, 2, 31, 12).getTimezoneOffset(),
      60,
    );
    const now = new Date(2025, 2, 31, 0, 30);
    assert.equal(historyGroupOf(new Date(2025, 2, 30, 0, 10), now), 'Yesterday');
    assert.equal(historyGroupOf(new Date(2025, 2, 29, 23, 50), now), 'Previous 7 days');
    assert.equal(historyGroupOf(new Date(2025, 2, 31, 0, 0), now), 'Today');
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
});
