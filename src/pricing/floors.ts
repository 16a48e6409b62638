import {
  effectiveRows,
  indexRows,
  isPriceable,
  noteChainEdges,
  type Derivations,
} from "./derivation";
import { AmountOutOfRange } from "./money";
import { heldTier, tierFor } from "./pricelists";
import { ascending, decidedBy, descending, type Ranking } from "./rank";
import type {
  Adjustment,
  CostPricelist,
  FloorExplain,
  FloorPricelist,
  Instant,
  Tier,
} from "./types";
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

/** A FLOOR list (or a COST list, costs.ts) with its request-level checks made once. */
export interface PreparedFloor {
  floor: FloorPricelist;
  gate: "NOT_ACTIVE" | "OTHER_CURRENCY" | null;
  inCurrency: boolean;
  inWindow: boolean;
  /** Effective rows per product: its own, else derived from its base (§24). */
  tiers: ReadonlyMap<string, readonly Tier[]>;
  /** Products it would derive from a base in another currency with no rate in force. */
  missingRate: ReadonlySet<string>;
  /**
   * A floor derived from a COST list priced for a key that does not see costs
   * (docs/api/access.md §18): it still floors the line, but its adjustment names no list and
   * explain leaves it out.
   */
  hidden: boolean;
}

const NONE: ReadonlySet<string> = new Set();

/** A derived floor's rows (docs/pricing-rules.md §24), else its own. */
function floorRows(floor: FloorPricelist, at: Instant, d: Derivations | undefined) {
  if (!floor.derivation || !d) return { tiers: indexRows(floor.prices, at), missingRate: NONE };
  const { id, currency, prices, derivation } = floor;
  return effectiveRows({ id, currency, prices, derivation }, d);
}

/**
 * The order FLOOR and COST lists are taken in: priority desc, then id asc (§23, §24). The SQL
 * twin is `channelCostList` of src/db/pricing/facts.ts.
 */
export const floorOrder = (
  a: { priority: number; id: number },
  b: { priority: number; id: number },
): number => descending(a.priority, b.priority) || ascending(a.id, b.id);

/**
 * Priority desc, id asc: the explain order, and the order the first floor is taken in. A floor
 * derived from a COST list finds its base among `derivations`' sources (§24); COST lists
 * themselves (costs.ts) never derive. `margin` false (a read key): such a floor is `hidden`.
 */
export function prepareFloors(
  floors: readonly (FloorPricelist | CostPricelist)[],
  currency: string,
  at: Instant,
  edges?: EdgeTracker,
  derivations?: Derivations,
  margin = true,
): PreparedFloor[] {
  return floors
    .map((floor: FloorPricelist): PreparedFloor => {
      const gate =
        floor.status !== "ACTIVE"
          ? ("NOT_ACTIVE" as const)
          : floor.currency !== currency
            ? ("OTHER_CURRENCY" as const)
            : null;
      // A scheduled row ends the answer's validity like a list's (docs/pricing-rules.md §17),
      // also one of its base, and so does the next rate the base is converted at.
      if (gate === null) {
        for (const row of floor.prices) edges?.note(row);
        if (floor.derivation && derivations) {
          const { id, prices, derivation } = floor;
          noteChainEdges({ id, currency, prices, derivation }, derivations, edges);
        }
      }
      return {
        floor,
        gate,
        inCurrency: floor.currency === currency,
        inWindow: isInWindow(floor, at),
        ...floorRows(floor, at, derivations),
        hidden: !margin && Boolean(floor.derivation),
      };
    })
    .sort((a, b) => floorOrder(a.floor, b.floor));
}

type Failure = Exclude<FloorOutcome, "USED" | "LOWER_RANK" | "NO_BASE_PRICE" | "NOT_ELIGIBLE">;

/** The tier a FLOOR or COST list has for the line, or the first check it fails. */
export function check(
  prepared: PreparedFloor,
  productCode: string,
  quantity: number,
): Tier | Failure {
  if (prepared.gate) return prepared.gate;
  const rows = prepared.tiers.get(productCode);
  if (!rows) {
    return prepared.missingRate.has(productCode) ? "NO_EXCHANGE_RATE" : "NO_PRICE_FOR_PRODUCT";
  }
  if (!prepared.inWindow) return "OUT_OF_WINDOW";
  return tierFor(rows, quantity) ?? "NO_TIER_FOR_QUANTITY";
}

/**
 * Whether a list's window counts for `validUntil`: once it passes the checks that do not
 * depend on time (status, currency, a row for the product).
 */
export const looksAt = (result: Tier | Failure): boolean =>
  typeof result !== "string" || result === "OUT_OF_WINDOW" || result === "NO_TIER_FOR_QUANTITY";

/** The line's floor: which list, its tier, and the effective amount. */
export interface LineFloor {
  prepared: PreparedFloor;
  tier: Tier;
  effective: number;
}

/** min(floor per `priceUnit` pieces, rounded up, base); a floor past 2^53 − 1 is above any base. */
function effectiveFloor(tier: Tier, priceUnit: number, base: number): number {
  // A derived floor past 2^53 − 1 (derivation.ts) is above any base too.
  if (!isPriceable(tier)) return base;
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
    if (!looksAt(result)) continue;
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

/** A FLOOR list that may floor a product at some quantity: what `floorsFor` keeps for a line. */
export interface ProductFloor {
  prepared: PreparedFloor;
  /** Its effective rows for the product, minQuantity ascending. */
  rows: readonly Tier[];
}

/**
 * The FLOOR lists that pass the checks that do not depend on the quantity (status, currency,
 * window, a row for the product), in floor order: all that `floorAt` looks at, found once per
 * line to floor it again at other quantities (the ladder, the price-break advice).
 */
export function floorsFor(floors: readonly PreparedFloor[], productCode: string): ProductFloor[] {
  const kept: ProductFloor[] = [];
  for (const prepared of floors) {
    if (prepared.gate || !prepared.inWindow) continue;
    const rows = prepared.tiers.get(productCode);
    if (rows) kept.push({ prepared, rows });
  }
  return kept;
}

/**
 * `floorFor` among the lists `floorsFor` kept, noting no edge (the line at its own quantity
 * noted them: the same lists pass the same checks at any quantity).
 */
export function floorAt(
  floors: readonly ProductFloor[],
  quantity: number,
  line: { base: number; priceUnit: number },
): LineFloor | undefined {
  for (let k = 0; k < floors.length; k++) {
    const { prepared, rows } = floors[k]!;
    const tier = tierFor(rows, quantity);
    if (tier) return { prepared, tier, effective: effectiveFloor(tier, line.priceUnit, line.base) };
  }
  return undefined;
}

/** `amount` raised to the effective floor: the amount `raiseToFloor`'s adjustment leads to. */
export const floored = (floor: LineFloor | undefined, amount: number): number =>
  !floor || amount >= floor.effective ? amount : floor.effective;

/**
 * Raises `amount` to the effective floor: the FLOOR adjustment, or undefined when not below. A
 * hidden floor's adjustment has no id: the amount it adds is all a read key learns of it.
 */
export function raiseToFloor(floor: LineFloor | undefined, amount: number): Adjustment | undefined {
  if (!floor || amount >= floor.effective) return undefined;
  return {
    kind: "FLOOR",
    id: floor.prepared.hidden ? null : floor.prepared.floor.id,
    scope: null,
    rung: null,
    valueBp: null,
    amount: floor.effective - amount,
  };
}

export const floorRanking: Ranking<PreparedFloor> = [
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

/**
 * Every floor list for one line, with the first failing check, USED or LOWER_RANK; a hidden
 * floor (a read key's view of a floor derived from cost) has no entry.
 */
export function explainFloors(
  floors: readonly PreparedFloor[],
  productCode: string,
  quantity: number,
  note: FloorNote,
): FloorExplain[] {
  const used = note.floor?.prepared;
  return floors
    .filter((prepared) => !prepared.hidden)
    .map((prepared) => {
      const { entry, isUsed } = explainList(prepared, productCode, quantity, note.unguarded, used);
      return {
        ...entry,
        effectiveAmount: isUsed ? note.floor!.effective : null,
        regularAdjustment: isUsed ? note.regular : null,
        finalAdjustment: isUsed ? note.final : null,
      };
    });
}

/**
 * What a FLOOR or COST list's explain entry shares: its first failing check, else USED (for the
 * list `used`, unless the line was `unpriced`) or LOWER_RANK, and the tier it has or holds.
 */
export function explainList(
  prepared: PreparedFloor,
  productCode: string,
  quantity: number,
  unpriced: "NO_BASE_PRICE" | "NOT_ELIGIBLE" | null,
  used: PreparedFloor | undefined,
) {
  const result = check(prepared, productCode, quantity);
  const tier = typeof result === "string" ? undefined : result;
  const shown = tier ?? heldTier(prepared, result as Failure, productCode, quantity);
  let outcome: FloorOutcome = tier ? (unpriced ?? "USED") : (result as Failure);
  if (outcome === "USED" && prepared !== used) outcome = "LOWER_RANK";
  const entry = {
    pricelistId: prepared.floor.id,
    name: prepared.floor.name,
    priority: prepared.floor.priority,
    outcome,
    decidedBy: outcome === "LOWER_RANK" && used ? decidedBy(floorRanking, prepared, used) : null,
    tierMinQuantity: shown?.minQuantity ?? null,
    amount: shown && isPriceable(shown) ? shown.amount : null,
    priceUnit: shown?.priceUnit ?? null,
  };
  return { entry, isUsed: outcome === "USED" };
}
