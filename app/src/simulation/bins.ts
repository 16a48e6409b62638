/** Bin widths in basis points that read well as percentages (0.01 % … 100 %). */
const WIDTHS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000];
const MAX_BINS = 24;

export interface Bin {
  /** Inclusive lower edge, basis points */
  from: number;
  /** Exclusive upper edge */
  to: number;
  count: number;
}

/**
 * A histogram of integer basis points: equal bins of a round width, at most 24 of them (wider
 * for wider ranges), edges on multiples of the width so that 0 is always an edge. Integers only.
 */
export function binsOf(values: readonly number[]): Bin[] {
  if (values.length === 0) return [];
  const min = Math.min(...values);
  const max = Math.max(...values);
  const width =
    WIDTHS.find((w) => Math.floor(max / w) - Math.floor(min / w) + 1 <= MAX_BINS) ??
    Math.ceil((max - min + 1) / MAX_BINS);
  const first = Math.floor(min / width);
  const bins: Bin[] = [];
  for (let k = first; k <= Math.floor(max / width); k++) {
    bins.push({ from: k * width, to: (k + 1) * width, count: 0 });
  }
  for (const value of values) bins[Math.floor(value / width) - first]!.count++;
  return bins;
}
