/** Bin widths in whole percent that read well. */
const WIDTHS = [1, 2, 5, 10, 20, 25, 50, 100];
const MAX_BINS = 25;

/** One bucket of the API's distribution: changed prices whose change rounds to `percent`. */
export interface Bucket {
  percent: number;
  count: number;
}

export interface Bin {
  /** First whole percent of the bin */
  from: number;
  /** Last whole percent of the bin (inclusive) */
  to: number;
  count: number;
}

/**
 * A histogram of the API's distribution (summary.distribution: every changed price by whole
 * percent, empty buckets left out): equal bins of a round width, at most 25 of them, wider for
 * wider ranges, with 0 % always at a bin's edge; empty bins in between included. Integers only.
 */
export function binsOf(buckets: readonly Bucket[]): Bin[] {
  if (buckets.length === 0) return [];
  const min = Math.min(...buckets.map((b) => b.percent));
  const max = Math.max(...buckets.map((b) => b.percent));
  const width =
    WIDTHS.find((w) => Math.floor(max / w) - Math.floor(min / w) + 1 <= MAX_BINS) ?? 100;
  const first = Math.floor(min / width);
  const bins: Bin[] = [];
  for (let k = first; k <= Math.floor(max / width); k++) {
    bins.push({ from: k * width, to: (k + 1) * width - 1, count: 0 });
  }
  for (const { percent, count } of buckets)
    bins[Math.floor(percent / width) - first]!.count += count;
  return bins;
}
