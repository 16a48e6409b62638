import { deriveAmount } from "./derivation";
import { AmountOutOfRange } from "./money";
import {
  planTimeline,
  type KeyedRow,
  type TimelineOverlap,
  type TimelinePlan,
  type TimelineRow,
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
  rows: readonly {
    productCode: string;
    minQuantity: number;
    amount: number;
    priceUnit: number;
    /** A GRADUATED band's flat amount (§29); absent: the one in force stays (0 for a new tier). */
    flatAmount?: number;
  }[];
}

/**
 * ADJUST_PRICES: every tier of the selected products valid at `at`, adjusted and rounded like a
 * derived list's (§3.7: round half up, then the ending), per the row's own price unit (§20); its
 * flat amount (§29) adjusted alike, half up, with no ending.
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
  /** A GRADUATED band's flat amount (§29). */
  flatAmount: number;
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

/**
 * An ADJUST_PRICES item would take a tier past 2^53 − 1 minor units, the largest amount stored
 * exactly (docs/api/change-requests.md §17.7): `item` is its index in the items given to
 * `planChanges`.
 */
export class ChangeAmountOutOfRange extends Error {
  constructor(
    readonly item: number,
    readonly productCode: string,
    readonly minQuantity: number,
  ) {
    super(`item ${item}: ${productCode} from quantity ${minQuantity} would exceed 2^53 - 1`);
  }
}

/**
 * One timeline of a pricelist (product, minQuantity): its stored rows and the writes of the items
 * so far, in order. Every write starts at `at`, so the last one is the row in force at `at` once
 * there is one (a row from `at` ends after it: rules 2 and 3 of §17), and the timeline as the
 * writes leave it is computed once, at the end.
 */
interface Timeline {
  productCode: string;
  minQuantity: number;
  stored: KeyedRow[];
  writes: TimelineWrite[];
}

/** The timelines of one pricelist the items select, by product and minQuantity. */
class ListState {
  readonly timelines = new Map<string, Timeline>();

  timeline(productCode: string, minQuantity: number): Timeline {
    const key = `${productCode}\u0000${minQuantity}`;
    let timeline = this.timelines.get(key);
    if (!timeline) {
      timeline = { productCode, minQuantity, stored: [], writes: [] };
      this.timelines.set(key, timeline);
    }
    return timeline;
  }

  /** A stored row's timeline, the row added to it when it is new there. */
  know(row: KeyedRow): Timeline {
    const timeline = this.timeline(row.productCode, row.minQuantity);
    if (!timeline.stored.some((known) => known.validFrom === row.validFrom)) {
      timeline.stored.push(row);
    }
    return timeline;
  }
}

/** The row of `timeline` in force at `at`, as the writes so far leave it. */
const inForce = (timeline: Timeline, at: Instant): TimelineRow | TimelineWrite | undefined =>
  timeline.writes.at(-1) ?? timeline.stored.find((row) => isInWindow(row, at));

/** Timelines (or rows) handled between two pauses of `planChangesInSteps`: some milliseconds. */
export const TIMELINES_PER_STEP = 2000;

/** A write of `item` on one timeline. */
interface Write {
  timeline: Timeline;
  write: TimelineWrite;
}

/** The writes of one item on its list's current timelines (none for a tier it leaves as it is). */
function* writesOf(
  { item, rows }: SelectedItem,
  index: number,
  state: ListState,
  at: Instant,
  pause: () => boolean,
): Generator<void, Write[]> {
  const writes: Write[] = [];
  const wanted = (timeline: Timeline, amount: number, priceUnit: number, flat?: number) => {
    const was = inForce(timeline, at);
    const flatAmount = flat ?? was?.flatAmount ?? 0;
    if (was?.amount === amount && was.priceUnit === priceUnit && was.flatAmount === flatAmount) {
      return;
    }
    writes.push({ timeline, write: { validFrom: at, amount, priceUnit, flatAmount } });
  };
  const selected = new Set<Timeline>();
  for (const row of rows) {
    selected.add(state.know(row));
    if (pause()) yield;
  }
  if (item.kind === "SET_PRICES") {
    for (const { productCode, minQuantity, amount, priceUnit, flatAmount } of item.rows) {
      wanted(state.timeline(productCode, minQuantity), amount, priceUnit, flatAmount);
      if (pause()) yield;
    }
    return writes;
  }
  const derivation = { ...item, basePricelistId: item.pricelistId };
  for (const timeline of selected) {
    const row = inForce(timeline, at);
    if (row) {
      let amount: number;
      let flatAmount: number;
      try {
        amount = deriveAmount(row.amount, derivation);
        flatAmount = deriveAmount(row.flatAmount, { ...derivation, rounding: null });
      } catch (error) {
        if (!(error instanceof AmountOutOfRange)) throw error;
        throw new ChangeAmountOutOfRange(index, timeline.productCode, timeline.minQuantity);
      }
      wanted(timeline, amount, row.priceUnit, flatAmount);
    }
    if (pause()) yield;
  }
  return writes;
}

/**
 * The plan of the price items, in order, dated `at`; or the first timeline overlap (which rows
 * without an end of their own cannot make, but the rules are the rules). A generator that pauses
 * every `timelinesPerStep` timelines or rows, so that its caller can let other work run between
 * steps (the Worker yields to the event loop: docs/api/change-requests.md §17.7); run without
 * pausing (`planChanges`), it answers the same. Linear in the rows: each item reads and writes only
 * the timelines it selects. Throws ChangeAmountOutOfRange when an adjusted amount would pass 2^53 −
 * 1.
 */
export function* planChangesInSteps(
  items: readonly SelectedItem[],
  at: Instant,
  timelinesPerStep = TIMELINES_PER_STEP,
): Generator<void, ChangePlan | ChangeOverlap> {
  let work = 0;
  const pause = () => ++work % timelinesPerStep === 0;
  const states = new Map<number, ListState>();
  for (const [index, selected] of items.entries()) {
    const id = selected.item.pricelistId;
    let state = states.get(id);
    if (!state) states.set(id, (state = new ListState()));
    // An item's writes are judged on the timelines as the items before it left them.
    const writes = yield* writesOf(selected, index, state, at, pause);
    for (const { timeline, write } of writes) timeline.writes.push(write);
  }
  const plan: ChangePlan = { lists: new Map(), tiers: [] };
  for (const [pricelistId, state] of states) {
    const lists: TimelinePlan = { inserts: [], updates: [], closed: 0 };
    let written = false;
    for (const timeline of state.timelines.values()) {
      if (!timeline.writes.length) continue;
      written = true;
      const overlap = planTimeline(lists, timeline, timeline.stored, timeline.writes);
      if (overlap) return { ...overlap, pricelistId };
      if (pause()) yield;
    }
    if (!written) continue;
    plan.lists.set(pricelistId, lists);
    const tier = (row: KeyedRow) => {
      if (row.validFrom !== at) return;
      const { productCode, minQuantity, amount, priceUnit, flatAmount } = row;
      plan.tiers.push({ pricelistId, productCode, minQuantity, amount, priceUnit, flatAmount });
    };
    for (const row of lists.inserts) tier(row);
    for (const update of lists.updates) tier(update.after);
  }
  return plan;
}

/** `planChangesInSteps` run to its end without pausing. */
export function planChanges(
  items: readonly SelectedItem[],
  at: Instant,
): ChangePlan | ChangeOverlap {
  const steps = planChangesInSteps(items, at);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Whether `planChanges` refused. */
export const isChangeOverlap = (result: ChangePlan | ChangeOverlap): result is ChangeOverlap =>
  "existing" in result;
