import { isPriceable } from "./derivation";
import { check, explainList, looksAt, prepareFloors, type PreparedFloor } from "./floors";
import { AmountOutOfRange } from "./money";
import type { CostExplain, CostPricelist, Instant, Tier } from "./types";
import { inUnit } from "./units";
import type { EdgeTracker } from "./validity";

/**
 * The cost of a line (docs/pricing-rules.md §23): the tier, by quantity, of the first of the
 * channel's COST lists that has one for the line exactly as a FLOOR list has one (ACTIVE, in the
 * request's currency, in its window, a row for the product valid at `at` with minQuantity ≤ q),
 * taking them by priority desc, then id asc; converted to the line's price unit, half up. Read
 * for admin keys only (`PriceRequest.margin`); a COST list never prices anything.
 */

/** COST lists are prepared as FLOOR lists are (they never derive): priority desc, id asc. */
export const prepareCosts = (
  costs: readonly CostPricelist[],
  currency: string,
  at: Instant,
  edges: EdgeTracker,
): PreparedFloor[] => prepareFloors(costs, currency, at, edges);

/** The line's cost: the COST list that gave it, and its amount per the line's price unit. */
export interface LineCost {
  prepared: PreparedFloor;
  /** null when it cannot be answered exactly (past 2^53 − 1 in the line's price unit). */
  unitAmount: number | null;
}

function inLineUnit(tier: Tier, priceUnit: number): number | null {
  if (!isPriceable(tier)) return null;
  try {
    return inUnit(tier.amount, tier.priceUnit, priceUnit);
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return null;
  }
}

/**
 * The cost of a priced line of `quantity` pieces whose amounts are per `priceUnit` pieces. The
 * lists looked at count for `validUntil` as floors do (a scheduled cost row changes an admin's
 * answer).
 */
export function costFor(
  costs: readonly PreparedFloor[],
  productCode: string,
  quantity: number,
  priceUnit: number,
  edges: EdgeTracker,
): LineCost | undefined {
  let found: LineCost | undefined;
  for (const prepared of costs) {
    const result = check(prepared, productCode, quantity);
    if (!looksAt(result)) continue;
    edges.note(prepared.floor);
    if (typeof result !== "string" && !found) {
      found = { prepared, unitAmount: inLineUnit(result, priceUnit) };
    }
  }
  return found;
}

/** Every COST list of the channel for one line, with why it gave the cost or not. */
export function explainCosts(
  costs: readonly PreparedFloor[],
  productCode: string,
  quantity: number,
  unpriced: "NO_BASE_PRICE" | "NOT_ELIGIBLE" | null,
  cost: LineCost | undefined,
): CostExplain[] {
  return costs.map((prepared) => {
    const { entry, isUsed } = explainList(
      prepared,
      productCode,
      quantity,
      unpriced,
      cost?.prepared,
    );
    return { ...entry, costUnitAmount: isUsed ? cost!.unitAmount : null };
  });
}
