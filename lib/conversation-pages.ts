/**
 * The sidebar's loaded conversation list as pages of GET /api/conversations (newest first, then id descending,
 * like the server's `${updatedAtMs}:${id}` cursor). Isomorphic, no React.
 */
export type ConversationPage<T> = { items: T[]; nextCursor: string | null };
type Row = { id: string; updatedAt: string };

const timeOf = (row: Row) => new Date(row.updatedAt).getTime();

/** Whether `a` sorts after `b` in the list (older, or as old with a smaller id). */
function sortsAfter(a: Row, b: Row): boolean {
  const ta = timeOf(a);
  const tb = timeOf(b);
  return ta < tb || (ta === tb && a.id < b.id);
}

/**
 * Appends the page fetched with `cursor`, skipping ids already shown. A page fetched for a cursor that is no longer
 * the list's end (page 1 was merged in meanwhile) is dropped; the caller simply asks again.
 */
export function appendPage<T extends Row>(
  list: ConversationPage<T>,
  cursor: string,
  next: ConversationPage<T>,
): ConversationPage<T> {
  if (list.nextCursor !== cursor) return list;
  const seen = new Set(list.items.map((i) => i.id));
  const fresh = next.items.filter((i) => !seen.has(i.id) && seen.add(i.id));
  return { items: [...list.items, ...fresh], nextCursor: next.nextCursor };
}

/**
 * Puts a freshly fetched page 1 in front of what is loaded. Loaded rows that sort after page 1's last row are kept
 * (with the list's own cursor); loaded rows inside page 1's range that page 1 no longer holds were deleted or moved.
 * Since updatedAt only grows, nothing unseen can hide between page 1 and the kept rows.
 */
export function mergeFirstPage<T extends Row>(
  list: ConversationPage<T>,
  first: ConversationPage<T>,
): ConversationPage<T> {
  const last = first.items.at(-1);
  if (!last || first.nextCursor === null) return first;
  const inFirst = new Set(first.items.map((i) => i.id));
  const tail = list.items.filter((i) => !inFirst.has(i.id) && sortsAfter(i, last));
  return tail.length ? { items: [...first.items, ...tail], nextCursor: list.nextCursor } : first;
}
