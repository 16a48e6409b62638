import type { RankKey } from "./vocabulary";

/**
 * A ranking is a list of named keys, most significant first; the same list sorts candidates and
 * tells `explain` which key put a loser behind the winner, so the two can never disagree.
 * Every ranking ends with the record id, which makes it total.
 */
export type Ranking<T> = ReadonlyArray<readonly [RankKey, (a: T, b: T) => number]>;

export const ascending = (a: number, b: number): number => (a < b ? -1 : a > b ? 1 : 0);
export const descending = (a: number, b: number): number => ascending(b, a);

export function compareBy<T>(ranking: Ranking<T>, a: T, b: T): number {
  // An index loop: it runs for every candidate of every line (no iterator, no destructuring).
  for (let i = 0; i < ranking.length; i++) {
    const order = ranking[i]![1](a, b);
    if (order !== 0) return order;
  }
  return 0;
}

/** The first candidate in ranking order (linear scan, no sort). */
export function pickBest<T>(ranking: Ranking<T>, items: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const item of items) {
    if (best === undefined || compareBy(ranking, item, best) < 0) best = item;
  }
  return best;
}

/** The key that ranks `loser` behind `winner`; null only when they tie on every key. */
export function decidedBy<T>(ranking: Ranking<T>, loser: T, winner: T): RankKey | null {
  for (const [key, compare] of ranking) {
    if (compare(loser, winner) !== 0) return key;
  }
  return null;
}
