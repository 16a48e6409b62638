import { deriveAmount } from "./derivation";
import {
  isTimelineOverlap,
  planTimelines,
  type KeyedRow,
  type TimelineOverlap,
  type TimelinePlan,
  type TimelineWrite,
} from "./timeline";
import type { Instant, Rounding } from "./types";
import { isInWindow } from "./validity";

/*
 * What the price items of a change request write (docs/pricing-rules.md §18): the items in their
 * order, each on the pricelist rows as the items before it left them, every row dated `at` (the
 * request's effectiveAt, or the moment it is applied). Pure: the caller reads the stored rows of
 * what the items select and writes the plans; the simulation of the impact takes `tiers`.
 */

/** SET_PRICES: these tiers from `at` (the timeline rules of §17). */
export interface SetPricesItem {
  kind: "SET_PRICES";
  pricelistId: number;
  rows: readonly { productCode: string; minQuantity: number; amount: number; priceUnit: number }[];
}

/**
 * ADJUST_PRICES: every tier of the selected products valid at `at`, adjusted and rounded like a
 * derived list's (§3.7: round half up, then the ending), per the row's own price unit (§20).
 */
export interface AdjustPricesItem {
  kind: "ADJUST_PRICES";
  pricelistId: number;
  adjustmentBp: number;
  rounding: Rounding | null;
}

export type PriceItem = SetPricesItem | AdjustPricesItem;

/** A price item and the stored rows of the products it selects (in its pricelist). */
export interface SelectedItem {
  item: PriceItem;
  /** Stored rows of the item's pricelist for the products it selects, every window. */
  rows: readonly KeyedRow[];
}

/** One tier as the simulation sets it: the row of (list, product, minQuantity) in force at `at`. */
export interface TierAt {
  pricelistId: number;
  productCode: string;
  minQuantity: number;
  amount: number;
  priceUnit: number;
}

export interface ChangePlan {
  /** Per pricelist, the inserts and updates of its timelines (planTimelines). */
  lists: Map<number, TimelinePlan>;
  /** The tiers in force at `at` that the plan changes. */
  tiers: TierAt[];
}

export interface ChangeOverlap extends TimelineOverlap {
  pricelistId: number;
}

type Write = TimelineWrite & { productCode: string; minQuantity: number };

const keyOf = (row: { productCode: string; minQuantity: number; validFrom: Instant | null }) =>
  `${row.productCode}\u0000${row.minQuantity}\u0000${row.validFrom ?? ""}`;

/** The rows of one pricelist as the writes so far leave them. */
class ListState {
  readonly stored = new Map<string, KeyedRow>();
  readonly writes: Write[] = [];
  private current = new Map<string, KeyedRow>();

  know(rows: readonly KeyedRow[]) {
    for (const row of rows) {
      const key = keyOf(row);
      if (!this.stored.has(key)) {
        this.stored.set(key, row);
        this.current.set(key, { ...row });
      }
    }
  }

  /** The current row in force at `at` for each stored (product, minQuantity) of `rows`. */
  inForce(rows: readonly KeyedRow[], at: Instant): KeyedRow[] {
    const timelines = new Set(rows.map((row) => `${row.productCode}\u0000${row.minQuantity}`));
    return [...this.current.values()].filter(
      (row) => timelines.has(`${row.productCode}\u0000${row.minQuantity}`) && isInWindow(row, at),
    );
  }

  /** Writes `writes` on the current rows; the overlap when the timeline rules refuse one. */
  write(writes: readonly Write[]): TimelineOverlap | undefined {
    const plan = planTimelines([...this.current.values()], writes);
    if (isTimelineOverlap(plan)) return plan;
    for (const row of [...plan.inserts, ...plan.updates.map((u) => u.after)]) {
      this.current.set(keyOf(row), row);
    }
    this.writes.push(...writes);
    return undefined;
  }
}

/** The writes of one item on its list's current rows (none for a tier it leaves as it is). */
function writesOf({ item, rows }: SelectedItem, state: ListState, at: Instant): Write[] {
  const inForce = new Map(
    state.inForce(rows, at).map((row) => [`${row.productCode}\u0000${row.minQuantity}`, row]),
  );
  const wanted =
    item.kind === "SET_PRICES"
      ? item.rows.map(({ productCode, minQuantity, amount, priceUnit }) => ({
          productCode,
          minQuantity,
          amount,
          priceUnit,
        }))
      : [...inForce.values()].map((row) => ({
          productCode: row.productCode,
          minQuantity: row.minQuantity,
          amount: deriveAmount(row.amount, { ...item, basePricelistId: item.pricelistId }),
          priceUnit: row.priceUnit,
        }));
  return wanted
    .filter((w) => {
      const was = inForce.get(`${w.productCode}\u0000${w.minQuantity}`);
      return was?.amount !== w.amount || was.priceUnit !== w.priceUnit;
    })
    .map((w) => ({ ...w, validFrom: at }));
}

/**
 * The plan of the price items, in order, dated `at`; or the first timeline overlap (which rows
 * without an end of their own cannot make, but the rules are the rules).
 */
export function planChanges(
  items: readonly SelectedItem[],
  at: Instant,
): ChangePlan | ChangeOverlap {
  const states = new Map<number, ListState>();
  for (const selected of items) {
    const id = selected.item.pricelistId;
    let state = states.get(id);
    if (!state) states.set(id, (state = new ListState()));
    state.know(selected.rows);
    const overlap = state.write(writesOf(selected, state, at));
    if (overlap) return { ...overlap, pricelistId: id };
  }
  const plan: ChangePlan = { lists: new Map(), tiers: [] };
  for (const [pricelistId, state] of states) {
    if (!state.writes.length) continue;
    const lists = planTimelines([...state.stored.values()], state.writes);
    if (isTimelineOverlap(lists)) return { ...lists, pricelistId };
    plan.lists.set(pricelistId, lists);
    for (const row of [...lists.inserts, ...lists.updates.map((u) => u.after)]) {
      if (row.validFrom !== at) continue;
      const { productCode, minQuantity, amount, priceUnit } = row;
      plan.tiers.push({ pricelistId, productCode, minQuantity, amount, priceUnit });
    }
  }
  return plan;
}

/** Whether `planChanges` refused. */
export const isChangeOverlap = (result: ChangePlan | ChangeOverlap): result is ChangeOverlap =>
  "existing" in result;
