import type { TargetedProduct } from "./targeting";
import { AmountOutOfRange, scale } from "./money";
import type { ChannelRoundingMode } from "./vocabulary";

/**
 * Order-level sums (docs/pricing-rules.md §4.4 and §5.4): a condition's ORDER_QUANTITY or
 * ORDER_VALUE scale basis and a promotion's threshold add up a value over the request's eligible
 * lines the record reaches. A sum of integers does not depend on the order of the lines, so
 * neither does any price. Sums stop at 2^53 − 1: every minimum is a safe integer, so a sum that
 * large reaches them all, and min(2^53 − 1, exact sum) is the same in every order.
 */

const MAX = Number.MAX_SAFE_INTEGER;

/** A line that counts for order-level sums: known product, base price, quantity allowed. */
export interface EligibleLine extends TargetedProduct {
  quantity: number;
}

/** a + b for non-negative safe integers, stopping at 2^53 − 1. */
export const saturatingAdd = (a: number, b: number): number => Math.min(MAX, a + b);

/** a × b for non-negative safe integers, stopping at 2^53 − 1. */
export const saturatingTimes = (a: number, b: number): number => Math.min(MAX, a * b);

/**
 * What `quantity` pieces cost at `unit` per `priceUnit` pieces: round(unit × quantity /
 * priceUnit) in the channel's rounding mode (docs/pricing-rules.md §20, §21), the line amount's
 * formula, for the ORDER_VALUE basis and VALUE thresholds; stopping at 2^53 − 1.
 */
export function lineValue(
  unit: number,
  quantity: number,
  priceUnit: number,
  mode: ChannelRoundingMode,
): number {
  try {
    return scale(unit, quantity, priceUnit, mode);
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return MAX;
  }
}
