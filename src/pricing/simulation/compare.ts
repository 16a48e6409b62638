import type { Adjustment, LinePrice } from "../types";
import type { PriceChangeAspect } from "../vocabulary";

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

export interface PriceChangeSummary {
  evaluated: number;
  changed: number;
  raised: number;
  lowered: number;
  largestRises: PriceChangeItem[];
  largestCuts: PriceChangeItem[];
  mostAffectedCustomers: CustomerChanges[];
}

/** How many entries each list of the summary holds at most. */
export const SUMMARY_TOP = 10;

const TRADE_KINDS: ReadonlySet<Adjustment["kind"]> = new Set([
  "NET_PRICE",
  "DISCOUNT",
  "SURCHARGE",
]);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

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

const itemOf = ({ customerCode, productCode, difference, differenceBp }: PriceChangeItem) => ({
  customerCode,
  productCode,
  difference,
  differenceBp,
});

/** The counts and the top lists of docs/simulation.md §4 over the changed rows. */
export function summarize(rows: readonly PriceChangeRow[], evaluated: number): PriceChangeSummary {
  const rises = rows.filter((r) => (r.difference ?? 0) > 0);
  const cuts = rows.filter((r) => (r.difference ?? 0) < 0);
  const negate = (n: number | null) => (n === null ? null : -n);
  const customers = new Map<string | null, CustomerChanges>();
  for (const { customerCode, difference } of rows) {
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
  return {
    evaluated,
    changed: rows.length,
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
    mostAffectedCustomers: [...customers.values()]
      .sort((a, b) => b.changed - a.changed || byText(a.customerCode, b.customerCode))
      .slice(0, SUMMARY_TOP),
  };
}
