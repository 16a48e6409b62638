import type { LineCost } from "./costs";
import { add, AmountOutOfRange, scale } from "./money";
import type { Accrual, LinePrice, PriceAnswer } from "./types";
import type { ChannelRoundingMode } from "./vocabulary";

/**
 * Margin and pocket price (docs/pricing-rules.md §26), for admin keys only: what a line's price
 * leaves over its cost, before and after the accruals the customer earns. Integers only; a ratio
 * in basis points is the one division, rounded half up on its magnitude.
 */

/** The fields a line gains with `margin`, in the answer's key order. */
export type MarginFields = Required<
  Pick<
    LinePrice,
    | "costUnitAmount"
    | "marginAmount"
    | "marginBp"
    | "accruals"
    | "pocketUnitAmount"
    | "pocketMarginBp"
  >
>;

/** A line that is not priced: no cost is compared with anything. */
export const UNPRICED: Readonly<MarginFields> = Object.freeze({
  costUnitAmount: null,
  marginAmount: null,
  marginBp: null,
  accruals: [],
  pocketUnitAmount: null,
  pocketMarginBp: null,
});

/**
 * round_half_up(difference × 10000 / of) on the magnitude; null when `of` is 0 (no ratio) or
 * the result would pass 2^53 − 1 (a cost many thousand times the price).
 */
export function marginBpOf(difference: number, of: number): number | null {
  if (of === 0) return null;
  try {
    return scale(difference, 10_000, of);
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return null;
  }
}

/** A priced line's margin fields, from its final amount, its cost and its accruals. */
export function marginOf(
  final: number,
  cost: LineCost | undefined,
  accruals: Accrual[],
): MarginFields {
  // Accruals never take the pocket below 0 (conditions.ts applyAccruals): no overflow here.
  const pocket = accruals.reduce((left, a) => left - a.amount, final);
  const costUnitAmount = cost?.unitAmount ?? null;
  if (costUnitAmount === null) {
    return { ...UNPRICED, accruals, pocketUnitAmount: pocket };
  }
  return {
    costUnitAmount,
    marginAmount: final - costUnitAmount,
    marginBp: marginBpOf(final - costUnitAmount, final),
    accruals,
    pocketUnitAmount: pocket,
    pocketMarginBp: marginBpOf(pocket - costUnitAmount, pocket),
  };
}

/** What a priced line costs: round(costUnitAmount × quantity / priceUnit) in `rounding`. */
export const lineCostAmount = (
  line: Pick<LinePrice, "costUnitAmount" | "quantity" | "priceUnit">,
  rounding: ChannelRoundingMode,
): number | null =>
  line.costUnitAmount == null
    ? null
    : scale(line.costUnitAmount, line.quantity, line.priceUnit ?? 1, rounding);

/**
 * The order's `costAmount` (Σ round(costUnitAmount × quantity / priceUnit) in the channel's
 * rounding mode, as `lineAmount`) and `marginAmount` (pricedTotalAmount − costAmount), over the
 * OK lines; both null when an OK line has no cost or a sum would pass 2^53 − 1. 0 and 0 when no
 * line is OK, like `pricedTotalAmount`.
 */
export function orderMargin(
  lines: readonly LinePrice[],
  pricedTotalAmount: number | null,
  rounding: ChannelRoundingMode,
): Pick<PriceAnswer, "costAmount" | "marginAmount"> {
  const none = { costAmount: null, marginAmount: null };
  let costAmount = 0;
  try {
    for (const line of lines) {
      if (line.status !== "OK") continue;
      const cost = lineCostAmount(line, rounding);
      if (cost === null) return none;
      costAmount = add(costAmount, cost);
    }
  } catch (error) {
    if (error instanceof AmountOutOfRange) return none;
    throw error;
  }
  if (pricedTotalAmount === null) return { costAmount, marginAmount: null };
  return { costAmount, marginAmount: pricedTotalAmount - costAmount };
}
