/** The indexes a windowed list mounts: its own range, and those of the kept messages (sorted, once each). */
export function withKept(
  range: number[],
  kept: ReadonlySet<string>,
  messages: readonly { id: string }[],
): number[] {
  if (kept.size === 0) return range;
  const extra = messages.flatMap((m, i) => (kept.has(m.id) && !range.includes(i) ? [i] : []));
  return extra.length === 0 ? range : [...range, ...extra].sort((a, b) => a - b);
}
