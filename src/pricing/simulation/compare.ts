import { lineCostAmount, marginBpOf } from "../margin";
import { AmountOutOfRange } from "../money";
import type { Adjustment, LinePrice } from "../types";
import type { ChannelRoundingMode, PriceChangeAspect } from "../vocabulary";

/** One (customer, product) whose line differs after the change set (docs/simulation.md §4). */
export interface PriceChangeRow {
  /** null: the anonymous buyer. */
  customerCode: string | null;
  productCode: string;
  before: LinePrice;
  after: LinePrice;
  /** after − before finalUnitAmount, minor units per unit; null when a side has none. */
  difference: number | null;
  /** difference × 10000 / before, rounded half away from zero; null without a ratio. */
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

  result(): MarginSummary {
    const safe = (n: bigint) =>
      n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= -BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(n)
        : null;
    const [revenue, cost, margin] = [
      safe(this.revenue),
      safe(this.cost),
      safe(this.revenue - this.cost),
    ];
    const exact = revenue !== null && cost !== null && margin !== null;
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

/** n / d in integers, rounded half away from zero (d > 0), exact whatever the magnitudes. */
function ratioBp(difference: number, before: number): number {
  const n = BigInt(difference) * 10000n;
  const d = BigInt(before);
  const magnitude = ((n < 0n ? -n : n) * 2n + d) / (2n * d);
  return Number(n < 0n ? -magnitude : magnitude);
}

/** The row of a (customer, product) pair, or null when its line is the same before and after. */
export function compareLines(
  customerCode: string | null,
  before: LinePrice,
  after: LinePrice,
): PriceChangeRow | null {
  if (same(before, after)) return null;
  const [b, a] = [before.finalUnitAmount, after.finalUnitAmount];
  const difference = b === null || a === null ? null : a - b;
  return {
    customerCode,
    productCode: before.productCode,
    before,
    after,
    difference,
    differenceBp: difference === null || b === 0 ? null : ratioBp(difference, b!),
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

/** Rows by |differenceBp| descending (null first), then customer (anonymous first), then product. */
export const sortRows = <T extends PriceChangeItem>(rows: T[]): T[] =>
  rows.sort((a, b) => largerFirst(abs(a.differenceBp), abs(b.differenceBp)) || byPair(a, b));

export const itemOf = ({
  customerCode,
  productCode,
  difference,
  differenceBp,
}: PriceChangeItem): PriceChangeItem => ({ customerCode, productCode, difference, differenceBp });

/** A rise above 100 % counts in the 100 % bucket (a price that doubles or more). */
const MAX_PERCENT = 100;

/** Rows with a ratio by differenceBp in whole percent (rounded half away from zero), ascending. */
function distributionOf(items: readonly PriceChangeItem[]): DistributionBucket[] {
  const counts = new Map<number, number>();
  for (const { differenceBp: bp } of items) {
    if (bp === null) continue;
    const rounded = Math.sign(bp) * Math.round(Math.abs(bp) / 100);
    const percent = Math.min(MAX_PERCENT, rounded) || 0;
    counts.set(percent, (counts.get(percent) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => a - b).map(([percent, count]) => ({ percent, count }));
}

function customerCounts(items: readonly PriceChangeItem[]): CustomerChanges[] {
  const customers = new Map<string | null, CustomerChanges>();
  for (const { customerCode, difference } of items) {
    const entry = customers.get(customerCode) ?? {
      customerCode,
      changed: 0,
      raised: 0,
      lowered: 0,
    };
    entry.changed += 1;
    if ((difference ?? 0) > 0) entry.raised += 1;
    if ((difference ?? 0) < 0) entry.lowered += 1;
    customers.set(customerCode, entry);
  }
  return [...customers.values()]
    .sort((a, b) => b.changed - a.changed || byText(a.customerCode, b.customerCode))
    .slice(0, SUMMARY_TOP);
}

/** No line evaluated: nothing summed. */
const NO_MARGIN: MarginSummary = new MarginTotals("HALF_UP").result();

/** The counts and the top lists of docs/simulation.md §4 over every changed pair. */
export function summarize(
  items: readonly PriceChangeItem[],
  evaluated: number,
  margin: PriceChangeSummary["margin"] = { before: NO_MARGIN, after: NO_MARGIN },
): PriceChangeSummary {
  const rises = items.filter((r) => (r.difference ?? 0) > 0);
  const cuts = items.filter((r) => (r.difference ?? 0) < 0);
  const negate = (n: number | null) => (n === null ? null : -n);
  return {
    evaluated,
    changed: items.length,
    raised: rises.length,
    lowered: cuts.length,
    largestRises: rises
      .sort(
        (a, b) =>
          largerFirst(a.differenceBp, b.differenceBp) ||
          largerFirst(a.difference, b.difference) ||
          byPair(a, b),
      )
      .slice(0, SUMMARY_TOP)
      .map(itemOf),
    largestCuts: cuts
      .sort(
        (a, b) =>
          largerFirst(negate(a.differenceBp), negate(b.differenceBp)) ||
          largerFirst(negate(a.difference), negate(b.difference)) ||
          byPair(a, b),
      )
      .slice(0, SUMMARY_TOP)
      .map(itemOf),
    mostAffectedCustomers: customerCounts(items),
    distribution: distributionOf(items),
    margin,
  };
}

/**
 * Collects the changed pairs of a simulation: every pair as a small item (for the summary), the
 * full rows only for the first `maxRows` in row order. Trimmed as it goes, so memory stays
 * bounded by `maxRows` whatever the number of changed pairs (100,000 rows of two lines each
 * would be over 100 MB of JSON).
 */
export class PriceChanges {
  private readonly items: PriceChangeItem[] = [];
  private kept: PriceChangeRow[] = [];

  constructor(private readonly maxRows: number) {}

  add(row: PriceChangeRow): void {
    this.items.push(itemOf(row));
    if (this.maxRows === 0) return;
    this.kept.push(row);
    if (this.kept.length > Math.max(2 * this.maxRows, 1000)) this.trim();
  }

  private trim() {
    this.kept = sortRows(this.kept).slice(0, this.maxRows);
  }

  /** The first `maxRows` rows in row order, how many were left out, and the summary. */
  result(evaluated: number, margin?: PriceChangeSummary["margin"]) {
    this.trim();
    return {
      rows: this.kept,
      rowsOmitted: this.items.length - this.kept.length,
      summary: summarize(this.items, evaluated, margin),
    };
  }
}
