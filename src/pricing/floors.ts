import { indexRows } from "./derivation";
import { AmountOutOfRange } from "./money";
import { heldTier, tierFor } from "./pricelists";
import { ascending, decidedBy, descending, type Ranking } from "./rank";
import type { Adjustment, FloorExplain, FloorPricelist, Instant, Tier } from "./types";
import { isInWindow, type EdgeTracker } from "./validity";
import { inUnit } from "./units";
import type { FloorOutcome } from "./vocabulary";

/**
 * Floors (docs/pricing-rules.md §14): the channel's FLOOR pricelists hold minimum unit prices.
 * A line's floor is the tier of the first of them, by priority desc then id asc, that has a price
 * for it (ACTIVE, in the currency, in window, a row with minQuantity ≤ q), exactly as a pricelist
 * has a price in step 1. The effective floor is min(floor, baseUnitAmount), the floor taken to
 * the line's price unit rounded up (§20): adjustments may not take a price below it, a base price
 * below the floor is kept.
 */

export interface PreparedFloor {
  floor: FloorPricelist;
  gate: "NOT_ACTIVE" | "OTHER_CURRENCY" | null;
  inCurrency: boolean;
  inWindow: boolean;
  tiers: ReadonlyMap<string, readonly Tier[]>;
}

/** Priority desc, id asc: the explain order, and the order the first floor is taken in. */
export function prepareFloors(
  floors: readonly FloorPricelist[],
  currency: string,
  at: Instant,
  edges?: EdgeTracker,
): PreparedFloor[] {
  return floors
    .map((floor) => {
      // A scheduled floor row ends the answer's validity like a list's (docs/pricing-rules.md §17).
      if (floor.status === "ACTIVE" && floor.currency === currency) {
        for (const row of floor.prices) edges?.note(row);
      }
      return floor;
    })
    .map((floor) => ({
      floor,
      gate:
        floor.status !== "ACTIVE"
          ? ("NOT_ACTIVE" as const)
          : floor.currency !== currency
            ? ("OTHER_CURRENCY" as const)
            : null,
      inCurrency: floor.currency === currency,
      inWindow: isInWindow(floor, at),
      tiers: indexRows(floor.prices, at),
    }))
    .sort(
      (a, b) => descending(a.floor.priority, b.floor.priority) || ascending(a.floor.id, b.floor.id),
    );
}

type Failure = Exclude<FloorOutcome, "USED" | "LOWER_RANK" | "NO_BASE_PRICE" | "NOT_ELIGIBLE">;

function check(prepared: PreparedFloor, productCode: string, quantity: number): Tier | Failure {
  if (prepared.gate) return prepared.gate;
  const rows = prepared.tiers.get(productCode);
  if (!rows) return "NO_PRICE_FOR_PRODUCT";
  if (!prepared.inWindow) return "OUT_OF_WINDOW";
  return tierFor(rows, quantity) ?? "NO_TIER_FOR_QUANTITY";
}

/** The line's floor: which list, its tier, and the effective amount. */
export interface LineFloor {
  prepared: PreparedFloor;
  tier: Tier;
  effective: number;
}

/** min(floor per `priceUnit` pieces, rounded up, base); a floor past 2^53 − 1 is above any base. */
function effectiveFloor(tier: Tier, priceUnit: number, base: number): number {
  try {
    return Math.min(inUnit(tier.amount, tier.priceUnit, priceUnit, true), base);
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return base;
  }
}

/**
 * The line's floor, for a base of `base` per `priceUnit` pieces. Floors looked at count for
 * `validUntil` once they pass the checks that do not depend on time.
 */
export function floorFor(
  floors: readonly PreparedFloor[],
  productCode: string,
  quantity: number,
  line: { base: number; priceUnit: number },
  edges: EdgeTracker,
): LineFloor | undefined {
  let found: LineFloor | undefined;
  for (const prepared of floors) {
    const result = check(prepared, productCode, quantity);
    if (result === "NOT_ACTIVE" || result === "OTHER_CURRENCY") continue;
    if (result === "NO_PRICE_FOR_PRODUCT") continue;
    edges.note(prepared.floor);
    if (typeof result !== "string" && !found) {
      found = {
        prepared,
        tier: result,
        effective: effectiveFloor(result, line.priceUnit, line.base),
      };
    }
  }
  return found;
}

/** Raises `amount` to the effective floor: the FLOOR adjustment, or undefined when not below. */
export function raiseToFloor(floor: LineFloor | undefined, amount: number): Adjustment | undefined {
  if (!floor || amount >= floor.effective) return undefined;
  return {
    kind: "FLOOR",
    id: floor.prepared.floor.id,
    scope: null,
    rung: null,
    valueBp: null,
    amount: floor.effective - amount,
  };
}

const floorRanking: Ranking<PreparedFloor> = [
  ["PRIORITY", (a, b) => descending(a.floor.priority, b.floor.priority)],
  ["ID", (a, b) => ascending(a.floor.id, b.floor.id)],
];

/** What the line's floor did; null when the line never got that far (not priced). */
export interface FloorNote {
  /** NO_BASE_PRICE / NOT_ELIGIBLE when the line has nothing to guard. */
  unguarded: "NO_BASE_PRICE" | "NOT_ELIGIBLE" | null;
  floor: LineFloor | undefined;
  regular: number | null;
  final: number | null;
}

/** Every floor list for one line, with the first failing check, USED or LOWER_RANK. */
export function explainFloors(
  floors: readonly PreparedFloor[],
  productCode: string,
  quantity: number,
  note: FloorNote,
): FloorExplain[] {
  const used = note.floor?.prepared;
  return floors.map((prepared) => {
    const result = check(prepared, productCode, quantity);
    const tier = typeof result === "string" ? undefined : result;
    const shown = tier ?? heldTier(prepared, result as Failure, productCode, quantity);
    let outcome: FloorOutcome = tier ? (note.unguarded ?? "USED") : (result as Failure);
    if (outcome === "USED" && prepared !== used) outcome = "LOWER_RANK";
    const isUsed = outcome === "USED";
    return {
      pricelistId: prepared.floor.id,
      name: prepared.floor.name,
      priority: prepared.floor.priority,
      outcome,
      decidedBy: outcome === "LOWER_RANK" && used ? decidedBy(floorRanking, prepared, used) : null,
      tierMinQuantity: shown?.minQuantity ?? null,
      amount: shown?.amount ?? null,
      priceUnit: shown?.priceUnit ?? null,
      effectiveAmount: isUsed ? note.floor!.effective : null,
      regularAdjustment: isUsed ? note.regular : null,
      finalAdjustment: isUsed ? note.final : null,
    };
  });
}
