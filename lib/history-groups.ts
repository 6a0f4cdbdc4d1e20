/** Sidebar date groups by the viewer's local calendar days. Isomorphic, no React. */
export const HISTORY_GROUP_LABELS = ['Today', 'Yesterday', 'Previous 7 days', 'Older'] as const;
export type HistoryGroupLabel = (typeof HISTORY_GROUP_LABELS)[number];
export type HistoryGroup<T> = { label: HistoryGroupLabel; items: T[] };

/** Local midnight `daysBack` calendar days before `now` (calendar arithmetic, so DST days of 23 or 25 hours count as one). */
function startOfLocalDay(now: Date, daysBack: number): number {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack).getTime();
}

/**
 * Today: since local midnight (and anything in the future, e.g. clock skew). Yesterday: the calendar day before.
 * Previous 7 days: the six calendar days before yesterday. Older: everything earlier, and unreadable dates.
 */
export function historyGroupOf(updatedAt: Date | string | number, now: Date): HistoryGroupLabel {
  const at = new Date(updatedAt).getTime();
  if (Number.isNaN(at)) return 'Older';
  if (at >= startOfLocalDay(now, 0)) return 'Today';
  if (at >= startOfLocalDay(now, 1)) return 'Yesterday';
  if (at >= startOfLocalDay(now, 7)) return 'Previous 7 days';
  return 'Older';
}

/** The non-empty groups in the fixed order above; items keep their relative order inside a group. */
export function groupByDate<T extends { updatedAt: Date | string | number }>(
  items: readonly T[],
  now: Date,
): HistoryGroup<T>[] {
  const byLabel = new Map<HistoryGroupLabel, T[]>(HISTORY_GROUP_LABELS.map((label) => [label, []]));
  for (const item of items) byLabel.get(historyGroupOf(item.updatedAt, now))?.push(item);
  return HISTORY_GROUP_LABELS.map((label) => ({ label, items: byLabel.get(label) ?? [] })).filter(
    (g) => g.items.length > 0,
  );
}
