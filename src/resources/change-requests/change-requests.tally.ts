import { changeOf, MarginTotals, percentBucket } from "../../pricing/simulation";
import type { LinePrice } from "../../pricing/types";

/*
 * What the impact counts over the (buyer, product, quantity) pairs it prices
 * (docs/api/change-requests.md §17.3): the change of each pair, the same way for the request's own
 * change and for the cumulative one, and a digest of every line it depended on, for stale detection
 * (§17.5).
 */

/** What a pair's line is compared by: its price, per how many pieces, and its status. */
export type Priced = Pick<LinePrice, "finalUnitAmount" | "priceUnit" | "status">;

/** Counts the changes of every pair it is shown. */
export class ChangeTally {
  compared = 0;
  changed = 0;
  /** Priced after, not before. */
  appeared = 0;
  /** Priced before, not after. */
  vanished = 0;
  maxRaiseBp = 0;
  maxCutBp = 0;
  totalBefore = 0;
  totalAfter = 0;
  readonly buckets = new Map<number, number>();

  add(before: Priced, after: Priced) {
    this.compared += 1;
    const [b, a] = [before.finalUnitAmount, after.finalUnitAmount];
    if (b !== a) this.changed += 1;
    if (b === null || a === null) {
      if (b === null && a !== null) this.appeared += 1;
      if (b !== null && a === null) this.vanished += 1;
      return;
    }
    this.totalBefore += b;
    this.totalAfter += a;
    // docs/api/change-requests.md §17.3: round_half_up((after − before) × 10000 / before), on the
    // magnitude, per piece when the two lines are priced per different units
    // (docs/simulation.md §4).
    const bp = changeOf(before as LinePrice, after as LinePrice).differenceBp;
    if (bp === null || bp === 0) return;
    if (bp > 0) this.maxRaiseBp = Math.max(this.maxRaiseBp, bp);
    if (bp < 0) this.maxCutBp = Math.max(this.maxCutBp, -bp);
    const percent = percentBucket(bp);
    this.buckets.set(percent, (this.buckets.get(percent) ?? 0) + 1);
  }
}

/**
 * The margin before and after (docs/api/change-requests.md §17.3): the sum of each channel's
 * simulation summary's margin, each line's cost rounded in its channel's mode. The mode given here
 * rounds nothing: only summaries are added.
 */
export const marginTotals = () => ({
  before: new MarginTotals("HALF_UP"),
  after: new MarginTotals("HALF_UP"),
});

const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of `text`, from `hash`. */
function fnv(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME) >>> 0;
  }
  return h;
}

const lineText = (line: LinePrice) =>
  `${line.status},${line.finalUnitAmount},${line.priceUnit},${line.costUnitAmount ?? null}`;

/**
 * A digest of every pair priced, in order: where (channel, currency, quantity, buyer, product)
 * and both lines (status, price, unit, cost). Two 32-bit FNV-1a hashes from different seeds and
 * the count: the same data gives the same text, and a changed line almost surely another.
 */
export class LineDigest {
  private count = 0;
  private a = 0x811c9dc5;
  private b = 0x01234567;

  add(place: string, before: LinePrice, after: LinePrice) {
    const text = `${place}|${lineText(before)}|${lineText(after)};`;
    this.count += 1;
    this.a = fnv(this.a, text);
    this.b = fnv(this.b, text);
  }

  text() {
    const hex = (n: number) => n.toString(16).padStart(8, "0");
    return `${this.count}:${hex(this.a)}${hex(this.b)}`;
  }
}
