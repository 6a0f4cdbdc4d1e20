/**
 * Where the focus goes when the row holding it is about to go (its item deleted): the same control in the
 * next row, in the row above for the last one, or null when no other row has it (the caller then picks
 * the list's own button, "Add …"). `control` finds that control in a row.
 */
export function neighbourControl(
  rows: Iterable<HTMLElement>,
  isGoing: (row: HTMLElement) => boolean,
  control: (row: HTMLElement) => HTMLElement | null,
): HTMLElement | null {
  const list = [...rows];
  const at = list.findIndex(isGoing);
  if (at < 0) return null;
  for (const row of [...list.slice(at + 1), ...list.slice(0, at).reverse()]) {
    const found = control(row);
    if (found) return found;
  }
  return null;
}
