import { lineCostAmount, marginBpOf } from "../margin";
import { AmountOutOfRange, scale } from "../money";
import type { Adjustment, LinePrice } from "../types";
import type { ChannelRoundingMode, PriceChangeAspect } from "../vocabulary";

/** One (customer, product) whose line differs after the change set (docs/simulation.md §4). */
export interface PriceChangeRow {
  /** null: the anonymous buyer. */
  customerCode: string | null;
  productCode: string;
  before: LinePrice;
  after: LinePrice;
  /**
   * after − before finalUnitAmount, minor units per the after line's price unit (the before
   * amount taken to it, half up, when the units differ); null when a side has none.
   */
  difference: number | null;
  /** The change per piece × 10000 / before per piece, rounded half away from zero, exact. */
  differenceBp: number | null;
  changed: PriceChangeAspect[];
}

export interface PriceChangeItem {
  customerCode: string | null;
  productCode: string;
  difference: number | null;
  differenceBp: number | null;
}

export interface CustomerChanges {
  customerCode: string | null;
  changed: number;
  raised: number;
  lowered: number;
}

/** Changed rows whose differenceBp rounds to `percent` (docs/simulation.md §4). */
export interface DistributionBucket {
  percent: number;
  count: number;
}

/**
 * What the evaluated lines of one side leave over their cost (docs/simulation.md §4): sums over
 * the priced lines that have a cost, each line's amounts as the price answer gives them.
 */
export interface MarginSummary {
  /** The priced lines with a cost: those the sums are over. */
  lines: number;
  /** Priced lines without a cost, left out of the sums. */
  linesWithoutCost: number;
  /** Σ lineAmount; null past 2^53 − 1 (and so are the others). */
  revenueAmount: number | null;
  /** Σ round(costUnitAmount × quantity / priceUnit). */
  costAmount: number | null;
  /** revenue − cost. */
  marginAmount: number | null;
  /** round_half_up(margin × 10000 / revenue); null when revenue is 0. */
  marginBp: number | null;
}

export interface PriceChangeSummary {
  evaluated: number;
  changed: number;
  raised: number;
  lowered: number;
  largestRises: PriceChangeItem[];
  largestCuts: PriceChangeItem[];
  mostAffectedCustomers: CustomerChanges[];
  distribution: DistributionBucket[];
  /** The margin of every evaluated line before and after the change set. */
  margin: { before: MarginSummary; after: MarginSummary };
}

/**
 * Sums the margins of one side's lines as they are priced: exact (BigInt), so 100,000 lines
 * never lose a cent; a sum past 2^53 − 1 is answered as null.
 */
export class MarginTotals {
  private lines = 0;
  private withoutCost = 0;
  private revenue = 0n;
  private cost = 0n;
  /** A sum added whole was already past 2^53 − 1: so are these. */
  private overflowed = false;

  constructor(private readonly rounding: ChannelRoundingMode) {}

  add(line: LinePrice): void {
    if (line.status !== "OK") return;
    let cost: number | null;
    try {
      cost = lineCostAmount(line, this.rounding);
    } catch (error) {
      if (!(error instanceof AmountOutOfRange)) throw error;
      cost = null;
    }
    if (cost === null) {
      this.withoutCost += 1;
      return;
    }
    this.lines += 1;
    this.revenue += BigInt(line.lineAmount!);
    this.cost += BigInt(cost);
  }

  /**
   * Adds the sums of other lines, as another tally answered them (each line's cost rounded in
   * its own channel's mode): a change request's impact sums its channels' simulations this way
   * (docs/api/change-requests.md §17.3).
   */
  addSummary(summary: MarginSummary): void {
    this.lines += summary.lines;
    this.withoutCost += summary.linesWithoutCost;
    if (summary.revenueAmount === null || summary.costAmount === null) {
      this.overflowed = true;
      return;
    }
    this.revenue += BigInt(summary.revenueAmount);
    this.cost += BigInt(summary.costAmount);
  }

  result(): MarginSummary {
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    const safe = (n: bigint) => (n <= max && n >= -max ? Number(n) : null);
    const [revenue, cost, margin] = [
      safe(this.revenue),
      safe(this.cost),
      safe(this.revenue - this.cost),
    ];
    const exact = !this.overflowed && revenue !== null && cost !== null && margin !== null;
    return {
      lines: this.lines,
      linesWithoutCost: this.withoutCost,
      revenueAmount: exact ? revenue : null,
      costAmount: exact ? cost : null,
      marginAmount: exact ? margin : null,
      marginBp: exact ? marginBpOf(margin, revenue) : null,
    };
  }
}

/** No line evaluated: nothing summed. */
const NO_MARGIN: MarginSummary = new MarginTotals("HALF_UP").result();

/** How many entries each list of the summary holds at most. */
export const SUMMARY_TOP = 10;

const TRADE_KINDS: ReadonlySet<Adjustment["kind"]> = new Set([
  "NET_PRICE",
  "DISCOUNT",
  "SURCHARGE",
]);

/**
 * Equality of two values built from JSON types (the engine's output). Structural, not through
 * JSON.stringify: the simulation compares up to 100,000 pairs of lines, and strings of both
 * cost more than the engine did.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameJson(item, b[i]));
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  return keys.every((key) => key in y && sameJson(x[key], y[key]));
}

const same = sameJson;

/**
 * MARGIN (docs/simulation.md §4): what the margin is computed from besides the price, the cost
 * and the accruals that reach the line; what they accrue only when the price is the same (a
 * percentage accrues more on a higher price, which the price's own aspects already say).
 */
function marginChanged(before: LinePrice, after: LinePrice): boolean {
  if (before.costUnitAmount !== after.costUnitAmount) return true;
  const ids = (l: LinePrice) => (l.accruals ?? []).map((a) => a.id);
  if (!same(ids(before), ids(after))) return true;
  return before.finalUnitAmount === after.finalUnitAmount && !same(before.accruals, after.accruals);
}

/** The line without what LEVEL, RUNG, ADJUSTMENTS, FLOOR and AVAILABILITY cover, nor sums of it. */
const baseOf = ({ source, tiers, listUnitAmount, taxInclusive }: LinePrice) => [
  source && { ...source, level: null },
  tiers,
  listUnitAmount,
  taxInclusive,
];

/** Which aspects of two lines of the same product differ, in PRICE_CHANGE_ASPECTS order. */
export function changedAspects(before: LinePrice, after: LinePrice): PriceChangeAspect[] {
  const trade = (l: LinePrice) => l.adjustments.filter((a) => TRADE_KINDS.has(a.kind));
  const floor = (l: LinePrice) => l.adjustments.filter((a) => a.kind === "FLOOR");
  const others = (l: LinePrice) => l.adjustments.filter((a) => a.kind !== "FLOOR");
  const checks: [PriceChangeAspect, boolean][] = [
    ["LEVEL", before.source?.level !== after.source?.level],
    [
      "RUNG",
      !same(
        trade(before).map((a) => a.rung),
        trade(after).map((a) => a.rung),
      ),
    ],
    ["BASE", !same(baseOf(before), baseOf(after))],
    ["ADJUSTMENTS", !same(others(before), others(after))],
    ["FLOOR", !same(floor(before), floor(after))],
    ["AVAILABILITY", before.status !== after.status],
    ["MARGIN", marginChanged(before, after)],
  ];
  return checks.filter(([, differs]) => differs).map(([aspect]) => aspect);
}

const MAX_BP = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * n / d in integers, rounded half away from zero (d > 0), exact whatever the magnitudes; a
 * magnitude past 2^53 − 1 (a rise from 1 to some 9 × 10^11 minor units and more) is answered as
 * 2^53 − 1, the largest integer JSON holds exactly (docs/simulation.md §4).
 */
function ratioBp(n: bigint, d: bigint): number {
  const exact = ((n < 0n ? -n : n) * 2n + d) / (2n * d);
  const magnitude = exact > MAX_BP ? MAX_BP : exact;
  return Number(n < 0n ? -magnitude : magnitude);
}

/**
 * The change of the final amount (docs/simulation.md §4). The two lines may be priced per
 * different units (a tier set per 1,000, a base from another list; docs/pricing-rules.md §20):
 * `difference` is then in the after line's unit, and `differenceBp` compares per piece, exactly:
 * (a / Ua − b / Ub) / (b / Ub) = (a × Ub − b × Ua) / (b × Ua).
 */
export function changeOf(before: LinePrice, after: LinePrice) {
  const [b, a] = [before.finalUnitAmount, after.finalUnitAmount];
  if (b === null || a === null) return { difference: null, differenceBp: null };
  const [ub, ua] = [before.priceUnit ?? 1, after.priceUnit ?? 1];
  const difference = ub === ua ? a - b : a - scale(b, ua, ub);
  if (b === 0) return { difference, differenceBp: null };
  const perPiece = BigInt(a) * BigInt(ub) - BigInt(b) * BigInt(ua);
  return { difference, differenceBp: ratioBp(perPiece * 10000n, BigInt(b) * BigInt(ua)) };
}

/** How a (customer, product) pair's price moved, or null when its line is the same before and after. */
export function differenceOf(
  customerCode: string | null,
  before: LinePrice,
  after: LinePrice,
): PriceChangeItem | null {
  if (same(before, after)) return null;
  return { customerCode, productCode: before.productCode, ...changeOf(before, after) };
}

/** The row of a (customer, product) pair, or null when its line is the same before and after. */
export function compareLines(
  customerCode: string | null,
  before: LinePrice,
  after: LinePrice,
): PriceChangeRow | null {
  const item = differenceOf(customerCode, before, after);
  if (!item) return null;
  const { productCode, difference, differenceBp } = item;
  return {
    customerCode,
    productCode,
    before,
    after,
    difference,
    differenceBp,
    changed: changedAspects(before, after),
  };
}

const byText = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;
const byPair = (a: PriceChangeItem, b: PriceChangeItem) =>
  byText(a.customerCode, b.customerCode) || byText(a.productCode, b.productCode);
/** Larger first; null (no ratio: a price that appears, vanishes or leaves 0) before any number. */
const largerFirst = (a: number | null, b: number | null) =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : b - a;
const abs = (n: number | null) => (n === null ? null : Math.abs(n));
const negate = (n: number | null) => (n === null ? null : -n);

/**
 * Row order: |differenceBp| descending (null first), then customer (anonymous first), then
 * product. A total order: a (customer, product) pair is one row.
 */
export const rowOrder = (a: PriceChangeItem, b: PriceChangeItem) =>
  largerFirst(abs(a.differenceBp), abs(b.differenceBp)) || byPair(a, b);

/** Rises: largest differenceBp first (from 0, without a ratio, first), then larger difference. */
const riseOrder = (a: PriceChangeItem, b: PriceChangeItem) =>
  largerFirst(a.differenceBp, b.differenceBp) ||
  largerFirst(a.difference, b.difference) ||
  byPair(a, b);

/** Cuts: most negative differenceBp first, then most negative difference. */
const cutOrder = (a: PriceChangeItem, b: PriceChangeItem) =>
  largerFirst(negate(a.differenceBp), negate(b.differenceBp)) ||
  largerFirst(negate(a.difference), negate(b.difference)) ||
  byPair(a, b);

/** Rows by |differenceBp| descending (null first), then customer (anonymous first), then product. */
export const sortRows = <T extends PriceChangeItem>(rows: T[]): T[] => rows.sort(rowOrder);

export const itemOf = ({
  customerCode,
  productCode,
  difference,
  differenceBp,
}: PriceChangeItem): PriceChangeItem => ({ customerCode, productCode, difference, differenceBp });

/**
 * The first `size` values in `order` of all those added, whatever order they come in, holding
 * no more than `size` at any time: a heap whose root is the last one kept, so a value that would
 * not be kept costs one comparison, one that is kept O(log size).
 */
export class FirstInOrder<T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly size: number,
    private readonly order: (a: T, b: T) => number,
  ) {}

  get length(): number {
    return this.heap.length;
  }

  /** Keeps `value` if it is among the first `size` so far (it may be pushed out later). */
  add(value: T): void {
    const { heap, size, order } = this;
    if (heap.length < size) {
      heap.push(value);
      this.up(heap.length - 1);
    } else if (size > 0 && order(value, heap[0]!) < 0) {
      heap[0] = value;
      this.down(0);
    }
  }

  /** What is kept, in order. */
  sorted(): T[] {
    return [...this.heap].sort(this.order);
  }

  private up(i: number): void {
    const { heap, order } = this;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (order(heap[i]!, heap[parent]!) <= 0) return;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const { heap, order } = this;
    for (;;) {
      const [left, right] = [2 * i + 1, 2 * i + 2];
      let last = i;
      if (left < heap.length && order(heap[left]!, heap[last]!) > 0) last = left;
      if (right < heap.length && order(heap[right]!, heap[last]!) > 0) last = right;
      if (last === i) return;
      [heap[i], heap[last]] = [heap[last]!, heap[i]!];
      i = last;
    }
  }
}

/** A rise above 100 % counts in the 100 % bucket (a price that doubles or more). */
const MAX_PERCENT = 100;

/** The whole percent of a change in bp (rounded half away from zero), rises capped at 100. */
export function percentBucket(bp: number): number {
  const rounded = Math.sign(bp) * Math.round(Math.abs(bp) / 100);
  return Math.min(MAX_PERCENT, rounded) || 0;
}

/** Counts by percent as the ascending buckets of a distribution. */
export const bucketsOf = (counts: ReadonlyMap<number, number>): DistributionBucket[] =>
  [...counts].sort(([a], [b]) => a - b).map(([percent, count]) => ({ percent, count }));

/**
 * The summary of docs/simulation.md §4, counted as the changed pairs come, in any order: a few
 * numbers per buyer and per percent, and the top lists, never the pairs themselves (the largest
 * call has 100,000).
 */
export class SummaryTally {
  private count = 0;
  private raised = 0;
  private lowered = 0;
  private readonly rises = new FirstInOrder(SUMMARY_TOP, riseOrder);
  private readonly cuts = new FirstInOrder(SUMMARY_TOP, cutOrder);
  private readonly customers = new Map<string | null, CustomerChanges>();
  /** Pairs with a differenceBp by whole percent (rounded half away from zero). */
  private readonly buckets = new Map<number, number>();

  /** Changed pairs so far. */
  get changed(): number {
    return this.count;
  }

  add(item: PriceChangeItem): void {
    const { customerCode, difference, differenceBp: bp } = item;
    this.count += 1;
    const customer = this.customers.get(customerCode) ?? {
      customerCode,
      changed: 0,
      raised: 0,
      lowered: 0,
    };
    this.customers.set(customerCode, customer);
    customer.changed += 1;
    if ((difference ?? 0) > 0) {
      this.raised += 1;
      customer.raised += 1;
      this.rises.add(itemOf(item));
    } else if ((difference ?? 0) < 0) {
      this.lowered += 1;
      customer.lowered += 1;
      this.cuts.add(itemOf(item));
    }
    if (bp !== null) {
      const percent = percentBucket(bp);
      this.buckets.set(percent, (this.buckets.get(percent) ?? 0) + 1);
    }
  }

  result(
    evaluated: number,
    margin: PriceChangeSummary["margin"] = { before: NO_MARGIN, after: NO_MARGIN },
  ): PriceChangeSummary {
    return {
      evaluated,
      changed: this.count,
      raised: this.raised,
      lowered: this.lowered,
      largestRises: this.rises.sorted(),
      largestCuts: this.cuts.sorted(),
      mostAffectedCustomers: [...this.customers.values()]
        .sort((a, b) => b.changed - a.changed || byText(a.customerCode, b.customerCode))
        .slice(0, SUMMARY_TOP),
      distribution: bucketsOf(this.buckets),
      margin,
    };
  }
}

/** The counts and the top lists of docs/simulation.md §4 over every changed pair. */
export function summarize(
  items: readonly PriceChangeItem[],
  evaluated: number,
  margin?: PriceChangeSummary["margin"],
): PriceChangeSummary {
  const tally = new SummaryTally();
  for (const item of items) tally.add(item);
  return tally.result(evaluated, margin);
}
