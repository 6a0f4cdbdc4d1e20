/** Small statistics and formatting helpers for the benchmarks in bench/. Samples are in milliseconds. */

/** The p-th percentile (0–100) by linear interpolation between closest ranks. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

export const mean = (samples: readonly number[]): number =>
  samples.reduce((s, x) => s + x, 0) / samples.length;

export type Summary = { n: number; p50: number; p95: number; mean: number; min: number; max: number };

export function summarize(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    p50: median(samples),
    p95: percentile(samples, 95),
    mean: mean(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
  };
}

/** Milliseconds with 3 decimals (i.e. microsecond resolution). */
export const ms = (x: number): string => x.toFixed(3);

/** A plain-text table: first column left-aligned, the others right-aligned (or all left-aligned for text). */
export function table(header: string[], rows: string[][], align: 'numbers' | 'text' = 'numbers'): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || align === 'text' ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * A profile's k largest entries (µs of CPU by name) as rows: the figure as `figure` writes it, its share of
 * `totalUs`, the name.
 */
export function topRows(
  byName: Map<string, number>,
  k: number,
  totalUs: number,
  figure: (us: number) => string,
): string[] {
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, us]) => `${figure(us)} ${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${name}`);
}
